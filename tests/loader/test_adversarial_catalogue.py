"""The adversarial catalogue (issue 14): what a hostile or careless user does to a log folder, and what each
case must do. Every case runs `evalhouse load` (the CLI, in this process) once per step, then checks:

- the exit code of every step (0 unless the case says otherwise), no traceback;
- **nothing lost, nothing doubled**: every record on disk that the case says lands is in raw exactly the
  expected number of times (records carry a unique "id"; a copy never lands twice), and nothing else is;
- the lines quarantined, each in raw.load_errors with its file (and its line, for a line);
- every message printed about a file names that file;
- no step takes longer than STEP_SECONDS (none hangs).

Cases are data (a name, the steps that change the folder, what must land); the generic checks live in
`test_adversarial_case`. The record-level catalogue of issue 7 is test_bad_input.py; this one adds the
file-system, rotation, identity, record and document cases an adversarial pass tries.
"""
from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import duckdb
import pytest

from evalhouse.cli import main
from evalhouse.loader import prepass as P
from lutil import write

STEP_SECONDS = 60
J = json.dumps


def _recs(*ids: str) -> str:
    return "".join(J({"id": i, "kind": "fix"}) + "\n" for i in ids)


@dataclass
class Case:
    name: str
    steps: list[Callable[[Path], None]]     # each changes the folder; a load follows each
    lands: dict[str, int]                   # id -> times it is in raw after the last step
    quarantined: int = 0                    # rows of raw.load_errors after the last step (lines and files)
    exits: int = 0                          # exit code of every step
    env: dict[str, str] = field(default_factory=dict)
    root_only: bool = False                 # needs root (mount) / skipped as root (permissions)


def once(*ids: str) -> dict[str, int]:
    return {i: 1 for i in ids}


def big(name: str, text: str | bytes) -> Callable[[Path], None]:
    return lambda root: write(root / "logs_big" / name, text)


def step(*fns) -> Callable[[Path], None]:
    def run(root: Path) -> None:
        for fn in fns:
            fn(root)
    return run


def rename(a: str, b: str) -> Callable[[Path], None]:
    def run(root: Path) -> None:
        (root / b).parent.mkdir(parents=True, exist_ok=True)
        os.replace(root / a, root / b)
    return run


def copy(a: str, b: str) -> Callable[[Path], None]:
    def run(root: Path) -> None:
        (root / b).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / a, root / b)
    return run


def append(path: str, text: str | bytes) -> Callable[[Path], None]:
    def run(root: Path) -> None:
        with open(root / path, "ab") as fh:
            fh.write(text.encode() if isinstance(text, str) else text)
    return run


def truncate(path: str) -> Callable[[Path], None]:
    return lambda root: open(root / path, "w").close()


def remove(path: str) -> Callable[[Path], None]:
    return lambda root: (root / path).unlink()


def symlink(target: str, link: str) -> Callable[[Path], None]:
    def run(root: Path) -> None:
        (root / link).parent.mkdir(parents=True, exist_ok=True)
        if (root / link).exists() or (root / link).is_symlink():
            (root / link).unlink()
        os.symlink(target if target.startswith("/") else root / target, root / link)
    return run


def hardlink(a: str, b: str) -> Callable[[Path], None]:
    return lambda root: os.link(root / a, root / b)


def mkfifo(path: str) -> Callable[[Path], None]:
    def run(root: Path) -> None:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(root / path)
    return run


def run_dir(name: str, where: str = "runs", extra: dict | None = None, tasks: dict[str, str] | None = None):
    """A coder-eval run directory: run.json (id = name) and task.json documents (id given per replicate)."""
    def run(root: Path) -> None:
        base = root / where / name
        write(base / "run.json", J({"id": f"run-{name}-{where}", "run_id": name, **(extra or {})}))
        for rel, text in (tasks or {}).items():
            write(base / rel, text)
    return run


def doc(id_: str, **kw) -> str:
    return J({"id": id_, "task_id": "t", **kw})


BAD_LINE_CASES = {
    # a bad line between two good ones: (text, whether it lands repaired (True) or is quarantined (False))
    "lone_surrogate_value": ('{"id": "X", "v": "\\udc80"}', True),
    "surrogate_pair_split_across_keys": ('{"id": "X", "\\ud83d": 1, "\\ude00": 2}', True),
    "nan_nested_in_array": ('{"id": "X", "v": [1, NaN, {"w": -Infinity}]}', True),
    "exponent_overflow": ('{"id": "X", "v": 1e400}', True),
    "duplicate_key_in_nested_object": ('{"id": "X", "o": {"a": 1, "a": 2}}', True),
    "duplicate_id_key_last_wins": ('{"id": "old", "id": "X"}', True),
    "escaped_nul_in_string": ('{"id": "X", "v": "a\\u0000b"}', True),
    "unicode_line_separator_in_string": ('{"id": "X", "v": "a\u2028b\u2029c"}', True),
    "empty_key": ('{"id": "X", "": 1}', True),
    "ten_thousand_keys": (J({"id": "X", **{f"k{i}": i for i in range(10_000)}}), True),
    "one_mb_string": (J({"id": "X", "v": "y" * (1 << 20)}), True),
    "tab_indented_object": ('\t {"id": "X"}\t', True),
    "trailing_comma": ('{"id": "X", "v": 1,}', False),
    "leading_zero_number": ('{"id": "X", "v": 01}', False),
    "single_quotes": ("{'id': 'X'}", False),
    "js_comment": ('{"id": "X"} // note', False),
    "two_objects_on_one_line": ('{"id": "X"}{"id": "Y"}', False),
    "unterminated_string": ('{"id": "X", "v": "abc}', False),
    "bare_word": ("garbage", False),
    # valid JSON that Python's json cannot read (recursion) and DuckDB can: lands as DuckDB reads it
    "deep_nesting_100k": ('{"id": "X", "a": ' + '{"a":' * 100_000 + "1" + "}" * 100_000 + "}", True),
    "bom_in_a_middle_line": ('\ufeff{"id": "X"}', False),
    "nul_byte_raw": ('{"id": "X"}\x00', False),
}


def _bad_line_case(name: str, text: str, lands: bool) -> Case:
    fname = f"{name}.jsonl"
    body = J({"id": "A"}) + "\n" + text + "\n" + J({"id": "B"}) + "\n"
    ids = ("A", "X", "B") if lands else ("A", "B")
    return Case(f"line:{name}", [big(fname, body)], once(*ids), quarantined=0 if lands else 1)


CASES: list[Case] = [
    # ---- rotation, renames, copies (multi-step) --------------------------------------------------------
    Case("rotate_by_rename_then_new_file",
         [big("runs.jsonl", _recs("a1", "a2")), step(rename("logs_big/runs.jsonl", "logs_big/runs-1.jsonl"),
                                                     big("runs.jsonl", _recs("b1")))], once("a1", "a2", "b1")),
    Case("rotate_twice", [big("r.jsonl", _recs("a")),
                          step(rename("logs_big/r.jsonl", "logs_big/r.1.jsonl"), big("r.jsonl", _recs("b"))),
                          step(rename("logs_big/r.1.jsonl", "logs_big/r.2.jsonl"),
                               rename("logs_big/r.jsonl", "logs_big/r.1.jsonl"), big("r.jsonl", _recs("c")))],
         once("a", "b", "c")),
    Case("copytruncate", [big("r.jsonl", _recs("a1", "a2")),
                          step(copy("logs_big/r.jsonl", "logs_big/r.1.jsonl"), truncate("logs_big/r.jsonl"),
                               append("logs_big/r.jsonl", _recs("b")))], once("a1", "a2", "b")),
    Case("copytruncate_with_a_load_between_copy_and_truncate",
         [big("r.jsonl", _recs("a")), copy("logs_big/r.jsonl", "logs_big/r.1.jsonl"),
          step(truncate("logs_big/r.jsonl"), append("logs_big/r.jsonl", _recs("b")))], once("a", "b")),
    Case("rotate_to_a_name_that_is_not_jsonl_keeps_the_rows",
         [big("r.jsonl", _recs("a")), rename("logs_big/r.jsonl", "logs_big/r.jsonl.1")], once("a")),
    Case("logrotate_delaycompress_keeps_every_line",
         [big("r.jsonl", _recs("a")),
          step(rename("logs_big/r.jsonl", "logs_big/r.jsonl.1"), big("r.jsonl", _recs("b"))),
          step(lambda root: write(root / "logs_big" / "r.jsonl.2.gz", gzip.compress((root / "logs_big" / "r.jsonl.1").read_bytes())),
               remove("logs_big/r.jsonl.1"), rename("logs_big/r.jsonl", "logs_big/r.jsonl.1"), big("r.jsonl", _recs("c")))],
         once("a", "b", "c")),
    Case("logrotate_compress_keeps_every_line",
         [big("r.jsonl", _recs("a1", "a2")),
          step(lambda root: write(root / "logs_big" / "r.jsonl.1.gz", gzip.compress((root / "logs_big" / "r.jsonl").read_bytes())),
               big("r.jsonl", _recs("b")))], once("a1", "a2", "b")),
    Case("compressed_archive_alone_lands", [big("old.jsonl.3.gz", gzip.compress(_recs("a", "b").encode()))],
         once("a", "b")),
    Case("compressed_archive_without_final_newline", [big("old.jsonl.gz", gzip.compress(_recs("a", "b")[:-1].encode()))],
         once("a", "b")),
    Case("truncated_compressed_archive_is_a_file_error",
         [step(big("r.jsonl", _recs("a")), big("old.jsonl.1.gz", gzip.compress(_recs("z").encode())[:-6]))],
         once("a"), quarantined=1),
    Case("logrotate_dateext_keeps_every_line",
         [big("r.jsonl", _recs("a")), step(rename("logs_big/r.jsonl", "logs_big/r.jsonl-20261201"),
                                           big("r.jsonl", _recs("b")))], once("a", "b")),
    Case("deleted_file_keeps_its_rows", [big("r.jsonl", _recs("a")), remove("logs_big/r.jsonl")], once("a")),
    Case("moved_to_a_subfolder_is_not_landed_twice",
         [big("r.jsonl", _recs("a")), rename("logs_big/r.jsonl", "logs_big/2026/r.jsonl")], once("a")),
    Case("copy_that_diverges_from_its_original",
         [big("r.jsonl", _recs("a")), copy("logs_big/r.jsonl", "logs_big/backup.jsonl"),
          step(big("r.jsonl", _recs("b")))], once("a", "b")),
    Case("copy_that_grows_on_its_own",
         [big("r.jsonl", _recs("a")), step(copy("logs_big/r.jsonl", "logs_big/c.jsonl"),
                                           append("logs_big/c.jsonl", _recs("c")))], once("a", "c")),
    Case("copy_made_then_both_grow_alike_mirror", [big("r.jsonl", _recs("a")), copy("logs_big/r.jsonl", "logs_big/m/r.jsonl"),
                                                   step(append("logs_big/r.jsonl", _recs("b")),
                                                        append("logs_big/m/r.jsonl", _recs("b")))], once("a", "b")),
    Case("mirror_sorted_before_its_original", [big("z.jsonl", _recs("a")), copy("logs_big/z.jsonl", "logs_big/a/z.jsonl"),
                                               step(append("logs_big/z.jsonl", _recs("b")),
                                                    append("logs_big/a/z.jsonl", _recs("b")))], once("a", "b")),
    Case("older_snapshot_then_refreshed", [step(big("live.jsonl", _recs("a")), copy("logs_big/live.jsonl", "logs_big/0bak/live.jsonl")),
                                           append("logs_big/live.jsonl", _recs("b")),
                                           copy("logs_big/live.jsonl", "logs_big/0bak/live.jsonl")], once("a", "b")),
    Case("copy_grows_then_its_original_catches_up", [big("r.jsonl", _recs("a")),
                                                     step(copy("logs_big/r.jsonl", "logs_big/c.jsonl"), append("logs_big/c.jsonl", _recs("b"))),
                                                     append("logs_big/r.jsonl", _recs("b"))], once("a", "b")),
    Case("copy_grows_then_its_original_is_rewritten", [big("r.jsonl", _recs("a")),
                                                       step(copy("logs_big/r.jsonl", "logs_big/c.jsonl"), append("logs_big/c.jsonl", _recs("b"))),
                                                       big("r.jsonl", _recs("n"))], once("a", "b", "n")),
    Case("two_equal_files_at_the_first_load", [step(big("x.jsonl", _recs("a")), big("y.jsonl", _recs("a")))],
         once("a")),
    Case("three_equal_files_then_the_first_is_rewritten",
         [step(big("x.jsonl", _recs("a")), big("y.jsonl", _recs("a")), big("z.jsonl", _recs("a"))),
          big("x.jsonl", _recs("b"))], {"a": 1, "b": 1}),
    Case("hard_link_to_a_landed_file", [big("r.jsonl", _recs("a")), hardlink("logs_big/r.jsonl", "logs_big/h.jsonl")],
         once("a")),
    Case("symlink_to_a_landed_file_in_the_same_root",
         [big("r.jsonl", _recs("a")), symlink("logs_big/r.jsonl", "logs_big/s.jsonl")], once("a")),
    Case("landed_file_replaced_by_a_symlink_to_another",
         [step(big("r.jsonl", _recs("a")), big("q.jsonl", _recs("b"))),
          symlink("logs_big/q.jsonl", "logs_big/r.jsonl")], once("a", "b")),
    Case("dangling_symlink", [step(big("r.jsonl", _recs("a")), symlink("/nonexistent/x.jsonl", "logs_big/d.jsonl"))],
         once("a")),
    Case("symlink_loop", [step(big("r.jsonl", _recs("a")), symlink("logs_big", "logs_big/loop"))], once("a")),
    Case("symlink_to_dev_zero_is_not_followed",
         [step(big("r.jsonl", _recs("a")), symlink("/dev/zero", "logs_big/zero.jsonl"))], once("a")),
    Case("fifo_named_jsonl_does_not_hang", [step(big("r.jsonl", _recs("a")), mkfifo("logs_big/pipe.jsonl"))],
         once("a")),
    Case("directory_named_jsonl", [step(big("r.jsonl", _recs("a")),
                                        lambda root: (root / "logs_big" / "d.jsonl").mkdir())], once("a")),
    Case("deeply_nested_folders", [big("/".join(["d"] * 60) + "/r.jsonl", _recs("a"))], once("a")),
    Case("odd_file_names", [step(big("a b;'\"$(x).jsonl", _recs("a")), big("ünï\u00e7ødé.jsonl", _recs("b")),
                                 big("-rf.jsonl", _recs("c")))], once("a", "b", "c")),
    # ---- appends and rewrites --------------------------------------------------------------------------
    Case("append_in_three_steps", [big("r.jsonl", _recs("a")), append("logs_big/r.jsonl", _recs("b")),
                                   append("logs_big/r.jsonl", _recs("c"))], once("a", "b", "c")),
    Case("partial_line_completed_later", [big("r.jsonl", _recs("a") + '{"id": "b"'),
                                          append("logs_big/r.jsonl", ', "kind": "fix"}\n')], once("a", "b")),
    Case("truncated_and_rewritten_replaces_its_rows",
         [big("r.jsonl", _recs("a1", "a2")), step(truncate("logs_big/r.jsonl"), append("logs_big/r.jsonl", _recs("b")))],
         once("b")),
    Case("rewrite_with_the_same_size", [big("r.jsonl", _recs("a1")), big("r.jsonl", _recs("b1"))], once("b1")),
    Case("crlf_file_appended_with_lf", [big("r.jsonl", _recs("a").replace("\n", "\r\n")),
                                        append("logs_big/r.jsonl", _recs("b"))], once("a", "b")),
    Case("bom_file_appended", [big("r.jsonl", "\ufeff" + _recs("a")), append("logs_big/r.jsonl", _recs("b"))],
         once("a", "b")),
    Case("empty_file_then_lines", [big("r.jsonl", ""), append("logs_big/r.jsonl", _recs("a"))], once("a")),
    Case("only_blank_lines", [big("r.jsonl", "\n \n\t\n")], {}),
    # raw.load_errors holds what is quarantined of each file as it is now: a fixed file's errors go with it
    Case("gzip_named_jsonl_then_fixed", [big("r.jsonl", gzip.compress(_recs("a").encode())),
                                         big("r.jsonl", _recs("a"))], once("a"), quarantined=0),
    Case("bad_line_then_rewritten_clean_leaves_no_quarantine", [big("r.jsonl", _recs("a") + "{bad\n" + _recs("b")),
                                                                 big("r.jsonl", _recs("a", "c", "b"))],
         once("a", "b", "c"), quarantined=0),
    Case("bad_line_then_rewritten_with_another_keeps_only_the_new_one",
         [big("r.jsonl", "{bad\n" + _recs("a")), big("r.jsonl", _recs("a") + "[1]\n")], once("a"), quarantined=1),
    Case("bad_line_then_appended_keeps_it_and_adds_the_new_one",
         [big("r.jsonl", _recs("a") + "{bad\n"), append("logs_big/r.jsonl", "{bad2\n" + _recs("b"))],
         once("a", "b"), quarantined=2),
    Case("broken_gzip_loaded_three_times_is_one_error",
         [big("r.jsonl.gz", gzip.compress(_recs("a", "b").encode())[:-12]), lambda root: None, lambda root: None],
         {}, quarantined=1),
    Case("bad_line_of_a_deleted_file_is_kept_with_its_rows",
         [big("r.jsonl", _recs("a") + "{bad\n"), remove("logs_big/r.jsonl")], once("a"), quarantined=1),
    Case("old_mac_cr_line_ends_are_one_bad_line", [big("r.jsonl", _recs("a", "b").replace("\n", "\r"))], {},
         quarantined=0),
    Case("utf16_file", [big("r.jsonl", _recs("a").encode("utf-16"))], {}, quarantined=1),
    Case("overlapping_roots_land_once", [big("r.jsonl", _recs("a"))], once("a")),  # loaded as root + root/logs_big
    Case("unrecognised_folder_loaded_with_family", [lambda root: write(root / "misc" / "r.jsonl", _recs("a"))], once("a")),
    # ---- one record never stops the load -----------------------------------------------------------------
    *[_bad_line_case(n, t, ok) for n, (t, ok) in BAD_LINE_CASES.items()],
    Case("line_past_the_record_limit", [big("r.jsonl", _recs("a") + J({"id": "H", "v": "z" * 5000}) + "\n" + _recs("b"))],
         once("a", "b"), quarantined=1, env={"EVALHOUSE_MAX_RECORD_BYTES": "2048"}),
    # ---- coder-eval documents ----------------------------------------------------------------------------
    Case("coder_eval_run_with_good_replicates", [run_dir("r1", tasks={"v/t/00/task.json": doc("t0"),
                                                             "v/t/01/task.json": doc("t1")})],
         once("run-r1-runs", "t0", "t1")),
    Case("coder_eval_empty_task_json", [run_dir("r1", tasks={"v/t/00/task.json": "", "v/t/01/task.json": doc("t1")})],
         once("run-r1-runs", "t1"), quarantined=1),
    Case("coder_eval_truncated_task_json", [run_dir("r1", tasks={"v/t/00/task.json": doc("t0")[:-5],
                                                        "v/t/01/task.json": doc("t1")})],
         once("run-r1-runs", "t1"), quarantined=1),
    Case("coder_eval_truncated_task_json_completed_later", [
        run_dir("r1", tasks={"v/t/00/task.json": doc("t0")[:-5]}), run_dir("r1", tasks={"v/t/00/task.json": doc("t0")})],
         once("run-r1-runs", "t0"), quarantined=0),
    Case("coder_eval_quarantined_task_json_now_ignored_is_quarantined_no_more", [
        run_dir("r1", tasks={"v/t/00/task.json": doc("t0")[:-5]}), remove("runs/r1/run.json")],
         once("run-r1-runs"), quarantined=0),
    Case("coder_eval_task_json_is_an_array", [run_dir("r1", tasks={"v/t/00/task.json": "[1, 2]"})], once("run-r1-runs"),
         quarantined=1),
    Case("coder_eval_task_json_nan_and_duplicate_keys", [run_dir("r1", tasks={
        "v/t/00/task.json": '{"id": "old", "id": "t0", "task_id": "t", "score": NaN}'})], once("run-r1-runs", "t0")),
    Case("coder_eval_task_json_gzip", [run_dir("r1", tasks={"v/t/00/task.json": gzip.compress(doc("t0").encode())})],
         once("run-r1-runs"), quarantined=1),
    Case("coder_eval_task_json_past_the_record_limit", [run_dir("r1", tasks={"v/t/00/task.json": doc("t0", pad="p" * 5000),
                                                                    "v/t/01/task.json": doc("t1")})],
         once("run-r1-runs", "t1"), quarantined=1, env={"EVALHOUSE_MAX_RECORD_BYTES": "2048"}),
    Case("coder_eval_judge_yaml_alias_bomb", [run_dir("r1", tasks={
        "v/t/00/task.json": doc("t0"),
        "v/t/00/judge-1.yaml": 'a: &a ["x","x","x","x","x","x","x","x","x"]\n' + "".join(
            f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))})],
         once("run-r1-runs", "t0"), quarantined=1),
    Case("coder_eval_judge_yaml_python_tag", [run_dir("r1", tasks={
        "v/t/00/task.json": doc("t0"), "v/t/00/judge-1.yaml": "id: !!python/object/apply:os.system ['true']\n"})],
         once("run-r1-runs", "t0"), quarantined=1),
    Case("coder_eval_artifacts_never_land", [run_dir("r1", tasks={"v/t/00/task.json": doc("t0"),
                                                         "v/t/00/artifacts/x/task.json": doc("art"),
                                                         "v/t/00/artifacts/log.jsonl": _recs("art2")})],
         once("run-r1-runs", "t0")),
    Case("coder_eval_copied_run_directory_lands_once", [run_dir("r1", tasks={"v/t/00/task.json": doc("t0")}),
                                                lambda root: shutil.copytree(root / "runs/r1", root / "backup/r1")],
         once("run-r1-runs", "t0")),
    Case("coder_eval_two_runs_with_one_name_are_two_runs", [step(
        run_dir("r1", "a", tasks={"v/t/00/task.json": doc("ta")}),
        run_dir("r1", "b", tasks={"v/t/00/task.json": doc("tb")}))],
         once("run-r1-a", "run-r1-b", "ta", "tb")),
    Case("coder_eval_run_renamed_then_old_name_reused", [
        run_dir("r1", tasks={"v/t/00/task.json": doc("old")}),
        step(rename("runs/r1", "runs/r1-old"), run_dir("r1", extra={"v": 2}, tasks={"v/t/00/task.json": doc("new")}))],
         {"run-r1-runs": 2, "old": 1, "new": 1}),
    Case("coder_eval_task_json_rewritten", [run_dir("r1", tasks={"v/t/00/task.json": doc("t0")}),
                                    lambda root: write(root / "runs/r1/v/t/00/task.json", doc("t0b"))],
         once("run-r1-runs", "t0b")),
    Case("coder_eval_task_json_deleted_keeps_its_row", [run_dir("r1", tasks={"v/t/00/task.json": doc("t0")}),
                                                remove("runs/r1/v/t/00/task.json")], once("run-r1-runs", "t0")),
    Case("coder_eval_surrogate_key_in_run_json", [lambda root: write(root / "runs/r9/run.json", '{"id": "r9", "\\ud800": 1}')],
         once("r9")),
    # ---- usage the CLI must refuse cleanly (exit 2, nothing written) -----------------------------------------
    Case("record_limit_not_a_number", [big("r.jsonl", _recs("a"))], {}, exits=2,
         env={"EVALHOUSE_MAX_RECORD_BYTES": "lots"}),
    Case("memory_limit_not_a_size", [big("r.jsonl", _recs("a"))], {}, exits=2,
         env={"EVALHOUSE_LOAD_MEMORY_LIMIT": "plenty"}),
]


def _ids(db: Path) -> tuple[Counter, list]:
    """(Counter of the ids in raw, rows of raw.load_errors)."""
    if not db.exists():
        return Counter(), []
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = {r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'raw'").fetchall()}
        got: Counter = Counter()
        for t in ("big_lines", "matrix_lines", "layered_lines"):
            if t in tables:
                got.update(r[0] for r in con.execute(f"SELECT record ->> '$.id' FROM raw.{t}").fetchall())
        for t in sorted(tables):
            if t.startswith("ce_"):
                got.update(r[0] for r in con.execute(f"SELECT document ->> '$.id' FROM raw.{t}").fetchall())
        errors = con.execute("SELECT source_file, source_line, error FROM raw.load_errors").fetchall() \
            if "load_errors" in tables else []
        return got, errors
    finally:
        con.close()


class _Hang(Exception):
    pass


def _alarm(*_):
    raise _Hang()


def _name(c) -> str:
    return (c.values[0] if hasattr(c, "values") else c).name


@pytest.mark.parametrize("case", CASES, ids=[_name(c) for c in CASES])
def test_adversarial_case(tmp_path, monkeypatch, capsys, case: Case):
    for k, v in case.env.items():
        monkeypatch.setenv(k, v)
    root = tmp_path / "root"
    root.mkdir()
    db = tmp_path / "w.duckdb"
    for i, change in enumerate(case.steps):
        change(root)
        paths = [str(root)] + ([str(root / "logs_big")] if case.name == "overlapping_roots_land_once" else [])
        argv = ["load", *paths, "--db", str(db)]
        if case.name == "unrecognised_folder_loaded_with_family":
            argv += ["--family", "big"]
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(STEP_SECONDS)
        try:
            rc = main(argv)
        except _Hang:
            pytest.fail(f"{case.name}: step {i + 1} took more than {STEP_SECONDS} s")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        out = capsys.readouterr()
        assert rc == case.exits, f"{case.name} step {i + 1}: exit {rc}\n{out.out}\n{out.err}"
        assert "Traceback" not in out.out + out.err
        for line in (out.out + out.err).splitlines():
            # a detail line about a file names it by its full path (`  <path>:<line>: reason`, `  replaced: <path> ...`)
            if line.startswith("  /") or line.startswith("  replaced:") or line.startswith("  duplicate:"):
                assert str(root) in line or str(db) in line, f"{case.name}: a message without its file: {line}"
        if "error" in out.err.lower():
            assert str(root) in out.err or str(db) in out.err or case.exits == 2, out.err
    if case.exits != 0:
        assert _ids(db) == (Counter(), [])          # refused before anything was written
        return
    got, errors = _ids(db)
    assert dict(got) == case.lands, f"{case.name}: landed {dict(got)}, expected {case.lands}"
    assert len(errors) == case.quarantined, f"{case.name}: quarantined {errors}"
    for file, line, reason in errors:
        assert file and file.startswith(str(root)) and reason, (file, line, reason)


def test_the_catalogue_has_at_least_sixty_cases():
    assert len(CASES) >= 60 and len({_name(c) for c in CASES}) == len(CASES)


def test_a_gzip_bomb_stops_at_the_limit_and_the_rest_lands(tmp_path, monkeypatch):
    monkeypatch.setattr(P, "GUNZIP_MAX", 1 << 20)
    write(tmp_path / "logs_big" / "bomb.jsonl.1.gz", gzip.compress(b"\n" * (8 << 20)))
    write(tmp_path / "logs_big" / "r.jsonl", _recs("a"))
    db = tmp_path / "w.duckdb"
    assert main(["load", str(tmp_path), "--db", str(db), "--quiet"]) == 0
    got, errors = _ids(db)
    assert got == Counter({"a": 1})
    (file, line, reason), = errors
    assert file.endswith("bomb.jsonl.1.gz") and line is None and "decompresses to more than" in reason
