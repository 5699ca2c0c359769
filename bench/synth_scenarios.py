"""The tool calls a :class:`~synth_session.RandomSession` plays, one method per
scenario (reads and searches that may run in parallel, edits, shell commands, web, ...)."""

from __future__ import annotations

import random

from synth_payloads_commands import (
    ASK_SKIPPED,
    ask_question_args,
    mcp_args,
    mcp_success,
    rejected,
    shell_args,
    shell_rejected,
    shell_result,
    todos,
    update_todos_args,
    update_todos_success,
    web_fetch_args,
    web_fetch_success,
    web_search_args,
    web_search_success,
)
from synth_payloads_files import (
    delete_args,
    delete_success,
    edit_args,
    edit_success,
    error_result,
    glob_args,
    glob_success,
    grep_args,
    grep_success,
    ls_args,
    ls_success,
    read_args,
    read_success,
    sem_search_args,
    sem_search_success,
    write_args,
    write_success,
)
from synth_project import (
    MODULES,
    NOUNS,
    VERBS,
    FakeProject,
    SourceFile,
    capitalise,
    past_participle,
)
from synth_prose import git_status_output, pytest_output, ruff_output, search_refs, web_markdown
from synth_run import Run, ToolCall
from synth_wire import JSON


class ToolScenarios:
    """What each tool scenario of :class:`~synth_session.RandomSession` emits on its run.

    A mixin: the session holds ``run``, ``project``, ``payload_kb``, ``huge_line_bytes``
    and the todo list these methods read."""

    run: Run
    project: FakeProject
    payload_kb: tuple[float, float]
    huge_line_bytes: int
    _todo_items: list[tuple[str, str, str]]

    @property
    def rng(self) -> random.Random:
        """The run's random source."""
        return self.run.rng

    def _size(self) -> int:
        lo, hi = self.payload_kb
        return int(1024 * lo * (hi / lo) ** self.rng.random())

    def _content(self, size: int) -> str:
        text = ""
        while len(text) < size:
            text += self.project.pick().text + "\n\n"
        return text[:size]

    def _parallel(self, kind: str, mcid: str) -> tuple[ToolCall, JSON, int]:
        run, rng, project = self.run, self.rng, self.project
        if kind == "read":
            f = project.pick()
            path = project.abs(f.rel)
            call = run.start_tool("readToolCall", read_args(path), model_call_id=mcid)
            return call, read_success(path, self._content(self._size())), rng.randint(30, 900)
        if kind == "grep":
            pattern = project.grep_pattern()
            call = run.start_tool(
                "grepToolCall", grep_args(pattern, project.cwd), model_call_id=mcid
            )
            return (
                call,
                grep_success(pattern, project.cwd, project.grep_hits(pattern)),
                rng.randint(80, 1400),
            )
        if kind == "glob":
            files = [f.rel for f in project.files]
            call = run.start_tool(
                "globToolCall", glob_args("**/*.py", project.cwd), model_call_id=mcid
            )
            return call, glob_success(files), rng.randint(40, 500)
        if kind == "ls":
            call = run.start_tool(
                "lsToolCall", ls_args(project.cwd, [".git", "__pycache__"]), model_call_id=mcid
            )
            return call, ls_success(project.tree()), rng.randint(30, 400)
        query = f"where is the {rng.choice(NOUNS)} {past_participle(rng.choice(VERBS))}"
        call = run.start_tool(
            "semSearchToolCall",
            sem_search_args(query, ["src/"], "Find related code"),
            model_call_id=mcid,
        )
        return call, self._sem_result(), rng.randint(300, 2500)

    def _sem_result(self) -> JSON:
        hits = []
        for _ in range(self.rng.randint(2, 6)):
            f = self.project.pick()
            lines = f.text.split("\n")
            s = self.rng.randrange(max(1, len(lines) - 20))
            hits.append((f.rel, s + 1, s + 20, "\n".join(lines[s : s + 20])))
        return sem_search_success(hits)

    def _tool_read(self, mcid: str) -> None:
        call, result, duration = self._parallel("read", mcid)
        self.run.finish_tool(call, result, duration_ms=duration)

    def _tool_grep(self, mcid: str) -> None:
        call, result, duration = self._parallel("grep", mcid)
        self.run.finish_tool(call, result, duration_ms=duration)

    def _tool_glob(self, mcid: str) -> None:
        call, result, duration = self._parallel("glob", mcid)
        self.run.finish_tool(call, result, duration_ms=duration)

    def _tool_ls(self, mcid: str) -> None:
        call, result, duration = self._parallel("ls", mcid)
        self.run.finish_tool(call, result, duration_ms=duration)

    def _tool_sem_search(self, mcid: str) -> None:
        call, result, duration = self._parallel("sem_search", mcid)
        self.run.finish_tool(call, result, duration_ms=duration)

    def _tool_read_error(self, mcid: str) -> None:
        path = self.project.abs(f"src/tidepool/{self.rng.choice(NOUNS)}s.py")
        self.run.tool(
            "readToolCall",
            read_args(path),
            error_result("File not found", path=path),
            model_call_id=mcid,
            duration_ms=self.rng.randint(10, 90),
        )

    def _tool_edit(self, mcid: str, huge: bool = False) -> None:
        run, rng, project = self.run, self.rng, self.project
        if huge:
            rel = "src/tidepool/_data/zone_table.py"
            row = '    ("{0}", {1}, {2}, "{3}"),\n'
            body, i = [], 0
            size = 0
            while size < self.huge_line_bytes // 3:
                line = row.format(
                    f"Zone/{capitalise(rng.choice(NOUNS))}_{i}",
                    rng.randint(-720, 840),
                    rng.randint(0, 1),
                    rng.choice(NOUNS),
                )
                body.append(line)
                size += len(line)
                i += 1
            before = (
                "# Generated by scripts/gen_zones.py; do not edit.\nZONES = [\n"
                + "".join(body)
                + "]\n"
            )
            after = before.replace(
                "Generated by scripts/gen_zones.py",
                "Generated by scripts/gen_zones.py --with-offsets",
            )
        else:
            f = project.pick("src/" if rng.random() < 0.7 else "")
            rel, before = f.rel, f.text
            after = project.edited(before)
            # Keep files from drifting in size over a million events.
            f.text = after if len(after) < 12_000 else project.module(rel.rsplit("/", 1)[1][:-3])
        path = project.abs(rel)
        run.tool(
            "editToolCall",
            edit_args(path, after),
            edit_success(path, before, after),
            model_call_id=mcid,
            duration_ms=rng.randint(60, 700),
        )

    def _tool_write(self, mcid: str) -> None:
        run, rng, project = self.run, self.rng, self.project
        rel = f"tests/test_{rng.choice(MODULES)}_regression_{rng.randint(1, 99)}.py"
        text = project.test_module(rng.choice(MODULES))
        project.add(SourceFile(rel, text))
        path = project.abs(rel)
        call_id = run.ids.call_id(run.call_id_style)
        run.tool(
            "writeToolCall",
            write_args(path, text, call_id),
            write_success(path, text),
            model_call_id=mcid,
            duration_ms=rng.randint(40, 300),
        )

    def _tool_delete(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        path = self.project.abs(f"tests/__snapshots__/{rng.choice(NOUNS)}_{rng.randint(1, 9)}.json")
        call_id = run.ids.call_id(run.call_id_style)
        call = run.start_tool(
            "deleteToolCall", delete_args(path, call_id), call_id=call_id, model_call_id=mcid
        )
        run.finish_tool(
            call, delete_success(path, rng.randint(200, 9000)), duration_ms=rng.randint(10, 120)
        )

    def _tool_todos(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        if not self._todo_items or rng.random() < 0.2:
            self._todo_items = [
                (
                    str(i + 1),
                    capitalise(f"{rng.choice(VERBS)} the {rng.choice(NOUNS)} handling"),
                    "pending",
                )
                for i in range(rng.randint(3, 6))
            ]
            merge = False
        else:
            merge = True
            for i, (tid, content, status) in enumerate(self._todo_items):
                if status != "completed":
                    new = "completed" if status == "in_progress" else "in_progress"
                    self._todo_items[i] = (tid, content, new)
                    break
        items = todos(self._todo_items)
        run.tool(
            "updateTodosToolCall",
            update_todos_args(items, merge=merge),
            update_todos_success(items),
            model_call_id=mcid,
            duration_ms=rng.randint(5, 60),
        )

    def _tool_shell(self, mcid: str) -> None:
        run, rng, project = self.run, self.rng, self.project
        tests = sorted({f.rel for f in project.files if f.rel.startswith("tests/")})
        roll = rng.random()
        if roll < 0.55:
            files = rng.sample(tests, k=min(len(tests), rng.randint(3, 12)))
            fail = rng.random() < 0.35
            failures = (
                [
                    (
                        files[0],
                        f"test_{project.func_name()}",
                        f"assert [0.1, 0.4, 0.2] == [0.1, 0.2, 0.4]  (seed {rng.randint(1, 9999)})",
                    )
                ]
                if fail
                else []
            )
            out = pytest_output(rng, files, failures=failures, root=project.cwd)
            while len(out) < self._size() // 3:
                out += pytest_output(rng, files, root=project.cwd)
            command = "uv run pytest -q " + " ".join(files[:3]) + " -p no:randomly"
            code, stdout, stderr = (1 if fail else 0), out, ""
            desc = "Run the focused tests"
        elif roll < 0.75:
            code, stdout = ruff_output(rng, [f.rel for f in project.files])
            command, stderr, desc = "uv run ruff check src tests", "", "Lint the package"
        elif roll < 0.9:
            changed = [f.rel for f in rng.sample(project.files, k=rng.randint(1, 5))]
            command, code, stdout, stderr = "git status --short", 0, git_status_output(changed), ""
            desc = "Show changed files"
        else:
            command = "uv sync --extra test"
            code, stdout = 0, ""
            stderr = (
                "Resolved 41 packages in 12ms\r\nPrepared 3 packages in 610ms\r\n"
                "Installed 3 packages in 9ms\r\n + hypothesis==6.112.1\r\n"
                " + pytest-timeout==2.3.1\r\n + pytest-xdist==3.6.1\r\n"
            )
            desc = "Install test dependencies"
        duration = rng.randint(300, 14000)
        call_id = run.ids.call_id(run.call_id_style)
        args = shell_args(
            command,
            tool_call_id=call_id,
            conversation_id=run.session_id,
            request_id=run.request_id,
            description=desc,
        )
        call = run.start_tool(
            "shellToolCall", args, call_id=call_id, model_call_id=mcid, description=desc
        )
        if rng.random() < 0.05:
            # Denied by the allow-list: the reason is empty and args are left out.
            run.finish_tool(
                call,
                shell_rejected(command, project.cwd),
                duration_ms=rng.randint(40, 1500),
                include_args=False,
            )
            return
        run.finish_tool(
            call,
            shell_result(
                command,
                exit_code=code,
                stdout=stdout,
                stderr=stderr,
                execution_time=duration - rng.randint(20, 150),
            ),
            duration_ms=duration,
        )

    def _tool_mcp(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        issue = rng.randint(100, 999)
        call_id = run.ids.call_id(run.call_id_style)
        args = mcp_args(
            "github",
            "get_issue",
            {"owner": "tidepool-dev", "repo": "tidepool", "issue_number": issue},
            call_id,
        )
        text = (
            f"# #{issue} Flaky: test ordering changes backoff delays\n\nOpened by "
            f"@ci-bot. Seen {rng.randint(3, 30)} times in the last 14 days.\n\n"
            + self._content(self._size() // 2)
        )
        call = run.start_tool("mcpToolCall", args, call_id=call_id, model_call_id=mcid)
        run.finish_tool(call, mcp_success([text]), duration_ms=rng.randint(200, 2000))

    def _tool_web_fetch(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        url = "https://tenacity.readthedocs.io/en/latest/api.html"
        call_id = run.ids.call_id(run.call_id_style)
        args = web_fetch_args(url, call_id)
        call = run.start_tool("webFetchToolCall", args, call_id=call_id, model_call_id=mcid)
        approved = rng.random() < 0.7
        run.ask(
            "webFetchRequestQuery",
            {"args": args, "skipApproval": False},
            {"approved": {}} if approved else rejected(),
            delay_ms=rng.randint(0, 2),
        )
        if approved:
            run.finish_tool(
                call,
                web_fetch_success(url, web_markdown(rng, self._size())),
                duration_ms=rng.randint(400, 3000),
            )
        else:
            run.finish_tool(call, rejected(), duration_ms=rng.randint(40, 260), include_args=False)

    def _tool_web_search(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        term = rng.choice(
            (
                "exponential backoff jitter",
                "pytest random seed per test",
                "python monotonic clock injection",
            )
        )
        call_id = run.ids.call_id(run.call_id_style)
        args = web_search_args(term, call_id)
        if rng.random() < 0.3:
            # A denied search: request, response, then a completed with no started.
            call = run.start_tool(
                "webSearchToolCall", args, call_id=call_id, model_call_id=mcid, emit=False
            )
            run.ask("webSearchRequestQuery", {"args": args}, rejected())
            run.finish_tool(call, rejected(), duration_ms=rng.randint(40, 90), include_args=False)
            return
        size = self._size()
        call = run.start_tool("webSearchToolCall", args, call_id=call_id, model_call_id=mcid)
        run.finish_tool(
            call,
            web_search_success(search_refs(rng, term, 5, size // 5)),
            duration_ms=rng.randint(800, 4000),
        )

    def _tool_ask_question(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        call_id = run.ids.call_id(run.call_id_style)
        args = ask_question_args(
            "How should I fix it?",
            [
                {
                    "id": "approach",
                    "prompt": "Inject the clock or pin the seed?",
                    "options": [
                        {"id": "clock", "label": "Inject the clock"},
                        {"id": "seed", "label": "Pin the seed"},
                    ],
                    "allowMultiple": False,
                }
            ],
        )
        run.ask(
            "askQuestionInteractionQuery",
            {"args": args, "toolCallId": call_id},
            {"result": rejected(ASK_SKIPPED)},
        )
        call = run.start_tool("askQuestionToolCall", args, call_id=call_id, model_call_id=mcid)
        run.finish_tool(call, rejected(ASK_SKIPPED), duration_ms=rng.randint(100, 900))
