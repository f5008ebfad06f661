#!/usr/bin/env python3
"""Write the inspect_ai fixture logs in fixtures/inspect/ with inspect_ai itself, offline.

The models are inspect's own `mockllm` provider with fixed outputs and token usage (no network, no
tokenizer download). What the logs cover (issue 17):

  both_models/     model-a and model-b on the same 5 samples (ids int and str), 2 epochs reduced by mean and
                   max, three scorers (match: C/I letters, includes: C/I, length_ratio: a number), a grader
                   model (model_graded_qa, role "grader"), one sample whose provider call fails (an errored
                   sample, fail_on_error=False), one that hits a message limit; .eval (zstd members) for
                   model-a and .json for model-b
  score_on_error/  model-a again with score_on_error=True: the errored sample is scored
  statuses/        status "error" (fail_on_error=True), "cancelled" (Ctrl-C) and "started" (the writer
                   killed mid-run: a journal and sample members, no header.json)
  features/        a priced model (mockllm/gpt-4.1-mini, on the rate card once the provider prefix is stripped)
                   graded by itself (role "grader" bound to the same model: model_usage merges the two, role_usage
                   separates them), a clustered stderr (stderr(cluster="group") over sample metadata), a
                   dict-valued scorer with a metric per key, and samples that hit message_limit (`--features`)
  deflate/         a log written by inspect_ai 0.3.90, whose .eval members are DEFLATE-compressed (`--old`)
  ../inspect_retry/  a failed log and its retry by eval_set, which carries the failed log's finished samples over
                   (the same sample uuids) (`--retry`)
  ../inspect_grouped/  grouped() metrics: accuracy per metadata group (and its `all`), a name template and an `all`
                   label of its own with the mean of the groups as `all`, the mean of the topics as `all`, a mean
                   per group with no `all`; one sample errors (fail_on_error=False) (`--grouped`)
  ../inspect_rescore/  two models' logs and two `inspect score` copies of model-a's: one appends a scorer, one
                   scores the same runs again under the same score name (`--rescore`)
  ../inspect_scales/  two models' logs with scores off the unit range (3 to 9, and a constant 5) and two grouped
                   metrics on one scorer, whose entries inspect_ai stores under keys made unique (`all2`), and a
                   plain stderr beside clustered ones on one scorer (`--scales`)
  ../inspect_epoch_errors/  two models, 3 epochs reduced by mean, max, pass_at_2, median and mode, scored pass/fail
                   (match) and 1.0 / 0.5 (closeness); model-a errors on some epochs of some samples (inspect_ai
                   reduces over the scored ones) and on every epoch of one (`--epoch-errors`)
  ../inspect_group_keys/  grouped() over sample metadata that is not a plain string (lists, dicts, floats in exponent
                   form, None, quoted strings): inspect_ai names a group str(value) (`--group-keys`)
  ../inspect_metric_kinds/  the metrics and reducers the other logs do not state: std(), var() and bootstrap_stderr()
                   over C / P / I letters (P is partial credit, 0.5), a scorer whose values are booleans, and 3 epochs
                   reduced by mean, at_least_2 and max (`--metric-kinds`)
  ../inspect_cluster_ids/  two models, a clustered stderr whose cluster ids Python calls equal though their JSON differs
                   (1, 1.0, True; 0, -0.0, False; 2, 2.0 but not "2"): inspect_ai's clusters are the Python values
                   (`--cluster-ids`)
  ../inspect_value_kinds/  score values value_to_float reads in its less common ways (numeric text, other text, a list
                   and a dict under plain metrics: 0), 2 epochs reduced by mean and max (`--value-kinds`)
  ../inspect_nonfinite/  two models' scores of inf and NaN: inspect_ai stores a mean of inf and a stderr of NaN
                   (`--value-kinds`)
  ../inspect_instruments/  eight models' logs of one task, each unlike model-a's in one way: another grader, a scorer
                   with other arguments, 3 epochs not 2, the task at version 1, no grader bound (model_graded_qa
                   grades with the model itself), one sample's target edited (`--instruments`)
  ../inspect_deep_graders/  two models' logs scored by an agent judge whose grader is called two spans below its
                   scorer span, bound to another model in each log (`--deep-graders`)
  ../inspect_relogged/  one log of eval_set's retry in which re-run samples are written twice under one member name,
                   the last entry the one inspect_ai reads (`--relogged`)
  ../inspect_sampleless/  two models' logs of one task, model-a's written with log_samples=False: a header and no
                   sample record (`--sampleless`)
  ../inspect_agentic/  two models' logs of a react() agent that calls bash in the local sandbox and submits, scored by
                   includes() and model_graded_fact() with a grader role (`--agentic`)

    make inspect-fixtures      # throw-away venvs with inspect_ai 0.3.285 and 0.3.90, then this script in each

The machine's paths are scrubbed from every member (the logs record the working directory), so the files
are the same wherever they were made; a re-run rewrites them with new run ids and times.
"""
from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fixtures" / "inspect"
INSPECT_VERSION = "0.3.285"
OLD_VERSION = "0.3.90"


def _task(n_epochs: int = 2):
    from inspect_ai import Epochs, Task
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import Score, Target, includes, match, mean, model_graded_qa, scorer, stderr
    from inspect_ai.solver import TaskState, generate

    @scorer(metrics=[mean(), stderr()])
    def length_ratio():
        async def score(state: TaskState, target: Target):
            return Score(value=min(1.0, len(state.output.completion) / 10.0))
        return score

    data = [Sample(id=1, input="What is 2+2? Answer with a number.", target="4", metadata={"group": "arith"}),
            Sample(id=2, input="What is 3+5? Answer with a number.", target="8", metadata={"group": "arith"}),
            Sample(id="cap-fr", input="Capital of France? One word.", target="Paris", metadata={"group": "geo"}),
            Sample(id="cap-de", input="Capital of Germany? One word.", target="Berlin", metadata={"group": "geo"}),
            Sample(id="boom", input="Explode please.", target="x", metadata={"group": "geo"})]
    return Task(name="qa", dataset=data, solver=generate(),
                scorer=[match(), includes(), length_ratio(), model_graded_qa()],
                epochs=Epochs(n_epochs, ["mean", "max"]), metadata={"cluster": "group"})


async def _hang():
    import anyio

    await anyio.sleep(600)


def _outputs(name: str, right: dict[str, str], slow: str | None = None):
    from inspect_ai.model import ModelOutput, ModelUsage

    calls = {"n": 0}

    def out(input, tools, tool_choice, config):
        calls["n"] += 1
        prompt = input[-1].text if input else ""
        if "Explode" in prompt:
            raise RuntimeError("simulated provider failure")
        if slow and slow in prompt:
            return _hang()          # an async generate that never finishes (mockllm awaits it)
        if "GRADE" in prompt:
            content = "GRADE: C" if calls["n"] % 2 else "GRADE: I"
        else:
            key = next((k for k in right if k in prompt), None)
            content = right[key] if key else "I don't know"
            if key and calls["n"] % 3 == 0:
                content = "maybe " + content
        o = ModelOutput.from_content(model=name, content=content)
        o.usage = ModelUsage(input_tokens=20 + calls["n"] % 5, output_tokens=5 + calls["n"] % 2,
                             total_tokens=30 + calls["n"] % 5 + calls["n"] % 2, input_tokens_cache_read=5)
        return o
    return out


A = {"2+2": "4", "3+5": "9", "France": "Paris", "Germany": "Berlin"}
B = {"2+2": "4", "3+5": "8", "France": "Lyon", "Germany": "Berlin"}


def _eval(out: Path, model: str, right: dict, fmt: str, **kw):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    m = get_model(f"mockllm/{model}", custom_outputs=_outputs(f"mockllm/{model}", right, kw.pop("slow", None)))
    g = get_model("mockllm/grader", custom_outputs=_outputs("mockllm/grader", {}))
    return inspect_eval(_task(kw.pop("epochs", 2)), model=m, model_roles={"grader": g}, log_dir=str(out),
                        log_format=fmt, display="none", **kw)


def _started(out: str) -> None:          # in a child process, killed while a sample hangs
    _eval(Path(out), "model-a", {**A, "Germany": "Berlin"}, "eval", slow="Germany", fail_on_error=False,
          log_buffer=1, max_samples=1, epochs=1)


def _scrub(root: Path) -> None:
    """The logs record the directory they were written from: replace this machine's paths."""
    subs = [(sys.prefix, "/venv"), (sys.base_prefix, "/python"), (str(ROOT), "/evalhouse"), (os.getcwd(), "/work"),
            (str(Path.home()), "/home/user")]
    for path in sorted(root.rglob("*")):
        if path.suffix == ".json":
            text = path.read_text()
            for a, b in subs:
                text = text.replace(a, b)
            path.write_text(text)
        elif path.suffix == ".eval":
            _scrub_zip(path, subs)


def _scrub_zip(path: Path, subs) -> None:
    try:
        import zstandard  # inspect_ai's own dependency in versions that write Zstandard members (ZIP method 93)
    except ImportError:
        zstandard = None

    members = []
    with open(path, "rb") as fh:
        data = fh.read()
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            start = info.header_offset
            name_len, extra_len = int.from_bytes(data[start + 26:start + 28], "little"), int.from_bytes(data[start + 28:start + 30], "little")
            raw = data[start + 30 + name_len + extra_len:start + 30 + name_len + extra_len + info.compress_size]
            if info.compress_type == 93:
                body = zstandard.ZstdDecompressor().decompress(raw, max_output_size=info.file_size)
            else:
                body = zf.read(info)
            text = body.decode()
            for a, b in subs:
                text = text.replace(a, b)
            members.append((info, text.encode()))
    _write_zstd_zip(path, members)


def _write_zstd_zip(path: Path, members) -> None:
    """A ZIP whose members are Zstandard-compressed (method 93), as inspect_ai writes them."""
    import struct
    import zlib

    out, central = bytearray(), bytearray()
    for info, body in members:
        if info.compress_type == 93:
            import zstandard
            comp = zstandard.ZstdCompressor().compress(body)
        else:
            co = zlib.compressobj(6, zlib.DEFLATED, -15)
            comp = co.compress(body) + co.flush()
        method = 93 if info.compress_type == 93 else 8
        crc = zlib.crc32(body)
        name = info.filename.encode()
        offset = len(out)
        dostime = (info.date_time[3] << 11) | (info.date_time[4] << 5) | (info.date_time[5] // 2)
        dosdate = ((info.date_time[0] - 1980) << 9) | (info.date_time[1] << 5) | info.date_time[2]
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 63, 0, method, dostime, dosdate, crc, len(comp), len(body),
                           len(name), 0) + name + comp
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 63, 63, 0, method, dostime, dosdate, crc, len(comp),
                               len(body), len(name), 0, 0, 0, 0, 0, offset) + name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(central), len(out), 0)
    path.write_bytes(bytes(out + central + end))


def _old() -> int:
    """A DEFLATE .eval from an old inspect_ai (one scorer, no roles: what that version offers)."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    def outs():
        n = 0
        while True:
            n += 1
            o = ModelOutput.from_content(model="mockllm/model-a", content="4" if n % 2 else "5")
            o.usage = ModelUsage(input_tokens=30, output_tokens=5, total_tokens=35, input_tokens_cache_read=10)
            yield o

    out = OUT / "deflate"
    shutil.rmtree(out, ignore_errors=True)
    data = [Sample(id=i, input=f"What is 2+2? (#{i})", target="4") for i in range(1, 5)]
    inspect_eval(Task(name="qa_old", dataset=data, solver=generate(), scorer=match()),
                 model=get_model("mockllm/model-a", custom_outputs=outs()), log_dir=str(out), log_format="eval",
                 display="none")
    _scrub(out)
    return 0


def _features() -> int:
    """One log with what the both_models logs lack: limits hit, a clustered stderr, a dict-valued score, a
    priced model graded by itself."""
    from inspect_ai import Epochs, Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import get_model
    from inspect_ai.scorer import Score, Target, accuracy, match, mean, model_graded_qa, scorer, stderr
    from inspect_ai.solver import Generate, TaskState, solver

    @solver
    def turns():
        async def solve(state: TaskState, generate: Generate):
            for _ in range(state.metadata.get("turns", 1)):
                state = await generate(state)
            return state
        return solve

    @scorer(metrics={"exact": [mean(), stderr()], "short": [mean(), stderr()]})
    def parts():
        async def score(state: TaskState, target: Target):
            text = state.output.completion.strip()
            return Score(value={"exact": float(text == target.text), "short": float(len(text) <= 6)})
        return score

    @scorer(metrics=[accuracy(), stderr(cluster="group")])
    def clustered_match():
        base = match()

        async def score(state: TaskState, target: Target):
            return await base(state, target)
        return score

    qs = [("2+2", "4", "arith"), ("3+5", "8", "arith"), ("France", "Paris", "geo"), ("Germany", "Berlin", "geo"),
          ("Italy", "Rome", "geo"), ("Spain", "Madrid", "geo"), ("5+5", "10", "arith"), ("Chess", "64", "board")]
    data = [Sample(id=f"f{i}", input=f"Question about {q}? Answer briefly.", target=t,
                   metadata={"group": g, "turns": 3 if q in ("Italy", "Chess") else 1})
            for i, (q, t, g) in enumerate(qs, 1)]
    right = {"2+2": "4", "3+5": "8", "France": "Paris", "Germany": "Bonn", "Italy": "Rome", "Spain": "Madrid",
             "5+5": "ten", "Chess": "64"}
    name = "mockllm/gpt-4.1-mini"
    m = get_model(name, custom_outputs=_outputs(name, right))
    out = OUT / "features"
    shutil.rmtree(out, ignore_errors=True)
    inspect_eval(Task(name="qa_features", dataset=data, solver=turns(),
                      scorer=[clustered_match(), parts(), model_graded_qa()], epochs=Epochs(2, "mean")),
                 model=m, model_roles={"grader": m}, log_dir=str(out), log_format="eval", display="none",
                 message_limit=3, fail_on_error=False)
    _scrub(out)
    return 0


def _grouped() -> int:
    """One log with inspect_ai's grouped() metrics: accuracy per metadata group with the whole as `all`; a name
    template and an `all` label of its own over an integer metadata key, the `all` the mean of the groups; the mean of
    the topics' accuracies as `all` (every group of two samples or more: it has an interval); a mean per group with
    no `all`. One geo sample errors (its provider call fails, fail_on_error=False): grouped() leaves it out, and
    counting it as incorrect lowers its groups and the means of groups."""
    from inspect_ai import Epochs, Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, Target, accuracy, grouped, includes, match, mean, scorer, stderr
    from inspect_ai.solver import TaskState, generate

    @scorer(metrics=[grouped(accuracy(), "topic"), stderr()])
    def by_topic():
        base = match()

        async def score(state: TaskState, target: Target):
            return await base(state, target)
        return score

    @scorer(metrics=[grouped(accuracy(), "level", all="groups", all_label="overall", name_template="level_{group_name}")])
    def by_level():
        base = includes()

        async def score(state: TaskState, target: Target):
            return await base(state, target)
        return score

    @scorer(metrics=[grouped(accuracy(), "topic", all="groups")])
    def topics_equal():
        base = match()

        async def score(state: TaskState, target: Target):
            return await base(state, target)
        return score

    @scorer(metrics=[grouped(mean(), "topic", all=False)])
    def brevity():
        async def score(state: TaskState, target: Target):
            return Score(value=min(1.0, 4.0 / max(1, len(state.output.completion))))
        return score

    qs = [("2+2", "4", "arith", 1), ("3+5", "8", "arith", 1), ("7*6", "42", "arith", 1), ("9*9", "81", "arith", 2),
          ("France", "Paris", "geo", 1), ("Germany", "Berlin", "geo", 1), ("Peru", "Lima", "geo", 2),
          ("Chad", "NDjamena", "geo", 2), ("water", "H2O", "chem", 1), ("salt", "NaCl", "chem", 3),
          ("Atlantis", "Poseidonia", "geo", 2)]
    data = [Sample(id=f"q{i}", input=f"Question about {q}? Answer briefly.", target=t,
                   metadata={"topic": g, "level": lvl, "source": f"src{(i + 1) // 2}"})
            for i, (q, t, g, lvl) in enumerate(qs, 1)]
    calls = {"n": 0}

    def out(input, tools, tool_choice, config):      # every third call answers wrong: epochs disagree
        prompt = input[-1].text if input else ""
        if "Atlantis" in prompt:                      # the errored sample (before the count: the others answer alike)
            raise RuntimeError("simulated provider failure")
        calls["n"] += 1
        key = next((q for q, *_ in qs if q in prompt), None)
        right = next((t for q, t, *_ in qs if q == key), "?")
        o = ModelOutput.from_content(model="mockllm/model", content="unsure" if calls["n"] % 3 == 0 else right)
        o.usage = ModelUsage(input_tokens=20, output_tokens=3, total_tokens=23)     # no tokenizer download
        return o

    out_dir = OUT.parent / "inspect_grouped"
    shutil.rmtree(out_dir, ignore_errors=True)
    inspect_eval(Task(name="grouped_qa", dataset=data, solver=generate(),
                      scorer=[by_topic(), by_level(), topics_equal(), brevity()], epochs=Epochs(2, "mean")),
                 model=get_model("mockllm/model", custom_outputs=out), log_dir=str(out_dir), log_format="eval",
                 display="none", max_samples=1, fail_on_error=False)
    _scrub(out_dir)
    return 0


def _retry() -> int:
    """A failed log and the log of its retry (fixtures/inspect_retry/): eval_set's retry carries the finished samples
    of the failed log into the new log (the same runs: the same sample uuids, tokens and times) and runs the failed
    one again. eval_set then deletes the failed log; a warehouse that loaded it before keeps it, so both are kept."""
    import tempfile

    from inspect_ai import Task, eval_set
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    name = "mockllm/gpt-4.1-mini"
    state = {"flaky": True, "n": 0}

    def out(input, tools, tool_choice, config):
        state["n"] += 1
        prompt = input[-1].text if input else ""
        if state["flaky"] and "Germany" in prompt:
            raise RuntimeError("simulated provider failure")
        o = ModelOutput.from_content(model=name, content=next((v for k, v in A.items() if k in prompt), "?"))
        o.usage = ModelUsage(input_tokens=40 + state["n"], output_tokens=4, total_tokens=44 + state["n"])
        return o

    qs = [("2+2", "4"), ("3+5", "8"), ("France", "Paris"), ("Germany", "Berlin")]
    data = [Sample(id=f"r{i}", input=f"Question about {q}? Answer briefly.", target=t) for i, (q, t) in enumerate(qs, 1)]
    out_dir = OUT.parent / "inspect_retry"
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        for attempt in ("failed", "retried"):
            before = set(Path(tmp).glob("*.eval"))
            eval_set(Task(name="qa_retry", dataset=data, solver=generate(), scorer=match()),
                     model=get_model(name, custom_outputs=out), log_dir=tmp, display="none", retry_attempts=0,
                     fail_on_error=True)
            (new,) = set(Path(tmp).glob("*.eval")) - before
            shutil.copyfile(new, out_dir / f"{attempt}.eval")
            state["flaky"] = False
    _scrub(out_dir)
    return 0


def _answers(name: str, right: dict[str, str], tokens: tuple[int, int]):
    """A mockllm output function: the answer `right` gives for the first of its keys in the prompt ("?" for none),
    with fixed token usage (input, output)."""
    from inspect_ai.model import ModelOutput, ModelUsage

    def out(input, tools, tool_choice, config):
        prompt = input[-1].text if input else ""
        o = ModelOutput.from_content(model=name, content=next((v for k, v in right.items() if k in prompt), "?"))
        o.usage = ModelUsage(input_tokens=tokens[0], output_tokens=tokens[1], total_tokens=sum(tokens))
        return o
    return out


def _rescore() -> int:
    """Two models' logs and two `inspect score` copies of model-a's (fixtures/inspect_rescore/). A copy keeps the
    log's runs (the same sample uuids, eval id and creation time) and, with action append, its scores: `append` adds
    a scorer (includes); `overwrite` scores the same runs again under the same score name (match anywhere in the
    answer, not at its end), which changes some values."""
    from inspect_ai import Task, score
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.log import read_eval_log, write_eval_log
    from inspect_ai.model import get_model
    from inspect_ai.scorer import includes, match
    from inspect_ai.solver import generate

    qs = [("2+2", "4"), ("3+5", "8"), ("France", "Paris"), ("Germany", "Berlin"), ("Italy", "Rome"), ("Spain", "Madrid")]
    answers = {"model-a": {"2+2": "4", "3+5": "8 is the sum", "France": "Paris", "Germany": "Bonn", "Italy": "Rome",
                           "Spain": "Madrid is the capital"},
               "model-b": {"2+2": "4", "3+5": "8", "France": "Lyon", "Germany": "Berlin", "Italy": "Rome",
                           "Spain": "Madrid"}}

    data = [Sample(id=f"s{i}", input=f"Question about {q}? Answer briefly.", target=t) for i, (q, t) in enumerate(qs, 1)]
    out_dir = OUT.parent / "inspect_rescore"
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    for model, right in answers.items():
        name = f"mockllm/{model}"
        (log,) = inspect_eval(Task(name="qa_rescore", dataset=data, solver=generate(), scorer=match()),
                              model=get_model(name, custom_outputs=_answers(name, right, (30, 6))),
                              log_dir=str(out_dir), log_format="eval", display="none")
        Path(log.location).rename(out_dir / f"{model}.eval")
    original = read_eval_log(str(out_dir / "model-a.eval"))
    write_eval_log(score(original, includes(), action="append", display="none"),
                   str(out_dir / "model-a.rescored-append.eval"))
    overwritten = score(original, match(location="any"), action="overwrite", display="none")
    before = [s.scores["match"].value for s in original.samples]
    assert before != [s.scores["match"].value for s in overwritten.samples], "the overwrite changed no value"
    write_eval_log(overwritten, str(out_dir / "model-a.rescored-overwrite.eval"))
    _scrub(out_dir)
    return 0


def _scales() -> int:
    """Two models' logs of one task (fixtures/inspect_scales/) with scores off the unit range and metric keys that
    inspect_ai made unique: `rating`, a number from 3 to 9 per sample (mean, stderr and the mean of the topics'
    means); `steady`, 5.0 for every sample (no spread); `two_groupings`, pass/fail with two grouped metrics whose
    entries share names (the second `all` is stored under the key `all2`, the second `arith` under `arith2`);
    `by_source`, pass/fail with a plain stderr beside a clustered one (samples cluster by their `source` metadata)
    and a grouped clustered stderr (per topic: one topic has a single source)."""
    from inspect_ai import Epochs, Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import get_model
    from inspect_ai.scorer import Score, Target, accuracy, grouped, mean, scorer, stderr
    from inspect_ai.solver import TaskState, generate

    @scorer(metrics=[mean(), stderr(), grouped(mean(), "topic", all="groups")])
    def rating():
        async def score(state: TaskState, target: Target):
            return Score(value=float(3 + len(state.output.completion) % 7))
        return score

    @scorer(metrics=[mean(), stderr()])
    def steady():
        async def score(state: TaskState, target: Target):
            return Score(value=5.0)
        return score

    @scorer(metrics=[grouped(accuracy(), "topic"), grouped(accuracy(), "level", all="groups"),
                     grouped(mean(), "topic", all=False)])
    def two_groupings():
        async def score(state: TaskState, target: Target):
            return Score(value="C" if state.output.completion.strip() == target.text else "I")
        return score

    @scorer(metrics=[accuracy(), stderr(), stderr(cluster="source"), grouped(stderr(cluster="source"), "topic")])
    def by_source():
        async def score(state: TaskState, target: Target):
            return Score(value="C" if target.text in state.output.completion else "I")
        return score

    qs = [("2+2", "4", "arith", 1), ("3+5", "8", "arith", 2), ("7*6", "42", "arith", 2), ("France", "Paris", "geo", 1),
          ("Germany", "Berlin", "geo", 1), ("Peru", "Lima", "geo", 2), ("water", "H2O", "chem", 1),
          ("salt", "NaCl", "chem", 2)]
    answers = {"model-a": {"2+2": "4", "3+5": "8", "7*6": "forty-two", "France": "Paris", "Germany": "Berlin",
                           "Peru": "Lima, Peru", "water": "H2O", "salt": "salt"},
               "model-b": {"2+2": "4", "3+5": "eight", "7*6": "42", "France": "Paris, France", "Germany": "Bonn",
                           "Peru": "Lima", "water": "dihydrogen monoxide", "salt": "NaCl"}}
    data = [Sample(id=f"q{i}", input=f"Question about {q}? Answer briefly.", target=t,
                   metadata={"topic": g, "level": lvl, "source": f"src{(i + 1) // 2}"})
            for i, (q, t, g, lvl) in enumerate(qs, 1)]

    out_dir = OUT.parent / "inspect_scales"
    shutil.rmtree(out_dir, ignore_errors=True)
    for model, right in answers.items():
        name = f"mockllm/{model}"
        inspect_eval(Task(name="qa_scales", dataset=data, solver=generate(),
                          scorer=[rating(), steady(), two_groupings(), by_source()], epochs=Epochs(2, "mean")),
                     model=get_model(name, custom_outputs=_answers(name, right, (25, 4))), log_dir=str(out_dir),
                     log_format="eval", display="none")
    _scrub(out_dir)
    return 0


def _epoch_errors() -> int:
    """Two models' logs of one task (fixtures/inspect_epoch_errors/), 3 epochs reduced by mean, max, pass_at_2, median
    and mode (which evalhouse cannot take again with an errored epoch counted 0), scored by match (pass/fail) and by
    closeness (1.0 for the target, 0.5 for any other answer: epochs that are not pass/fail). A wrong answer spells
    NaN and Infinity inside its text.
    model-a's provider call fails on some epochs of some samples (fail_on_error=False): inspect_ai reduces those
    samples over the epochs that were scored (2 correct and 1 errored read 1.0), and one sample errors in every
    epoch (unscored). model-b errors on none."""
    from inspect_ai import Epochs, Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, Target, match, mean, scorer, stderr
    from inspect_ai.solver import TaskState, generate

    qs = [("2+2", "4"), ("3+5", "8"), ("7*6", "42"), ("France", "Paris"), ("Germany", "Berlin"), ("Peru", "Lima")]
    # model-a: (question, epoch) pairs whose provider call fails, and answers it gets wrong
    fails = {("2+2", 1), ("3+5", 1), ("7*6", 2), ("7*6", 3), ("France", 1), ("Peru", 1), ("Peru", 2), ("Peru", 3)}
    wrong = {"model-a": {("3+5", 2), ("3+5", 3), ("France", 3)}, "model-b": {("2+2", 1), ("7*6", 2), ("Germany", 3)}}
    data = [Sample(id=f"q{i}", input=f"Question about {q}? Answer briefly.", target=t) for i, (q, t) in enumerate(qs, 1)]

    @scorer(metrics=[mean(), stderr()])
    def closeness():
        async def score(state: TaskState, target: Target):
            return Score(value=1.0 if state.output.completion.strip() == target.text else 0.5)
        return score

    def outputs(model: str):
        seen: dict[str, int] = {}

        def out(input, tools, tool_choice, config):
            prompt = input[-1].text if input else ""
            q, t = next((q, t) for q, t in qs if q in prompt)
            seen[q] = epoch = seen.get(q, 0) + 1            # max_samples=1: a sample's epochs run in order
            if model == "model-a" and (q, epoch) in fails:
                raise RuntimeError("simulated provider failure")
            # a wrong answer spells non-finite floats inside its text, as a model printing a table might: strings
            # beside the log's own bare NaN (a pass_at_2 below 2 scored epochs), which Spark must leave as they are
            wrong_answer = "ratio: NaN, [NaN, -Infinity]"
            o = ModelOutput.from_content(model=f"mockllm/{model}", content=wrong_answer if (q, epoch) in wrong[model] else t)
            o.usage = ModelUsage(input_tokens=30, output_tokens=3, total_tokens=33)
            return o
        return out

    out_dir = OUT.parent / "inspect_epoch_errors"
    shutil.rmtree(out_dir, ignore_errors=True)
    for model in ("model-a", "model-b"):
        inspect_eval(Task(name="qa_epochs", dataset=data, solver=generate(), scorer=[match(), closeness()],
                          epochs=Epochs(3, ["mean", "max", "pass_at_2", "median", "mode"])),
                     model=get_model(f"mockllm/{model}", custom_outputs=outputs(model)), log_dir=str(out_dir),
                     log_format="eval", display="none", max_samples=1, fail_on_error=False)
    _scrub(out_dir)
    return 0


def _group_keys() -> int:
    """One log (fixtures/inspect_group_keys/) with grouped(accuracy(), key) over sample metadata whose values are not
    plain strings: lists, dicts, nested ones, floats Python writes in exponent form (1e-07, 1e+20) or as -0.0, large
    and negative integers, booleans, None, and strings with quotes, a backslash, a newline and letters beyond ASCII.
    inspect_ai names each group str(value); evalhouse must name it the same to take the group's metric again."""
    from inspect_ai import Epochs, Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import accuracy, grouped, match, scorer
    from inspect_ai.solver import generate

    values = [
        dict(tags=["a", "b"], cfg={"k": 1, "z": "x"}, small=1e-7, big=1e20, ratio=0.1, neg=-0.0, text="\u00e9 \u00fc",
             maybe=None, flag=True, nested=[[1, 2.5], {"a": None}], count=10 ** 18, quotes=["it's", 'say "hi"']),
        dict(tags=["c"], cfg={"k": 2}, small=2.5e-5, big=123456789012.0, ratio=1 / 3, neg=-1.5, text="\u65e5\u672c",
             maybe="x", flag=False, nested=[], count=-3, quotes=["both ' and \"", "back\\slash"]),
        dict(tags=[], cfg={}, small=1e16, big=1.5e300, ratio=2.0, neg=-2e-10, text="a'b\"c", maybe=None, flag=True,
             nested={"a": [True, False]}, count=0, quotes=["new\nline\ttab"]),
    ]

    def by(key: str):
        @scorer(metrics=[grouped(accuracy(), key)], name=f"by_{key}")
        def group_scorer():
            base = match()

            async def score(state, target):
                return await base(state, target)
            return score
        return group_scorer()

    qs = [("2+2", "4"), ("3+5", "8"), ("7*6", "42"), ("9*9", "81"), ("France", "Paris"), ("Peru", "Lima")]
    data = [Sample(id=f"q{i}", input=f"Question about {q}? Answer briefly.", target=t, metadata=values[i % 3])
            for i, (q, t) in enumerate(qs)]
    calls = {"n": 0}

    def out(input, tools, tool_choice, config):      # every third call answers wrong
        prompt = input[-1].text if input else ""
        calls["n"] += 1
        right = next((t for q, t in qs if q in prompt), "?")
        o = ModelOutput.from_content(model="mockllm/model", content="unsure" if calls["n"] % 3 == 0 else right)
        o.usage = ModelUsage(input_tokens=20, output_tokens=3, total_tokens=23)
        return o

    out_dir = OUT.parent / "inspect_group_keys"
    shutil.rmtree(out_dir, ignore_errors=True)
    inspect_eval(Task(name="group_keys", dataset=data, solver=generate(), scorer=[by(k) for k in values[0]],
                      epochs=Epochs(2, "mean")),
                 model=get_model("mockllm/model", custom_outputs=out), log_dir=str(out_dir), log_format="eval",
                 display="none", max_samples=1)
    _scrub(out_dir)
    return 0


def _metric_kinds() -> int:
    """One log (fixtures/inspect_metric_kinds/) with the metrics and reducers the other fixtures do not state:
    `letters` scores C, P (partial credit: value_to_float reads 0.5) or I under accuracy, stderr, std, var and
    bootstrap_stderr; `exact` scores True / False under mean and stderr; 3 epochs reduced by mean, at_least_2 and max.
    bootstrap_stderr resamples at random, so evalhouse states it and does not take it again."""
    from inspect_ai import Epochs, Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, Target, accuracy, bootstrap_stderr, mean, scorer, std, stderr, var
    from inspect_ai.solver import TaskState, generate

    @scorer(metrics=[accuracy(), stderr(), std(), var(), bootstrap_stderr(num_samples=200)])
    def letters():
        async def score(state: TaskState, target: Target):
            answer = state.output.completion.strip()
            return Score(value="C" if answer == target.text else "P" if answer[:1] == target.text[:1] else "I")
        return score

    @scorer(metrics=[mean(), stderr()])
    def exact():
        async def score(state: TaskState, target: Target):
            return Score(value=state.output.completion.strip() == target.text)
        return score

    data = [Sample(id=f"s{i}", input=f"Item {i}: repeat the code.", target=f"{i % 10}x") for i in range(12)]
    calls = {"n": 0}

    def out(input, tools, tool_choice, config):      # of every 5 calls, one half right and one wrong: epochs differ
        prompt = input[-1].text if input else ""
        calls["n"] += 1
        right = f"{int(prompt.split()[1].rstrip(':')) % 10}x"
        wrong = {0: right[0] + "y", 3: "zz"}
        o = ModelOutput.from_content(model="mockllm/model", content=wrong.get(calls["n"] % 5, right))
        o.usage = ModelUsage(input_tokens=20, output_tokens=3, total_tokens=23)
        return o

    out_dir = OUT.parent / "inspect_metric_kinds"
    shutil.rmtree(out_dir, ignore_errors=True)
    inspect_eval(Task(name="metric_kinds", dataset=data, solver=generate(), scorer=[letters(), exact()],
                      epochs=Epochs(3, ["mean", "at_least_2", "max"])),
                 model=get_model("mockllm/model", custom_outputs=out), log_dir=str(out_dir), log_format="eval",
                 display="none", max_samples=1)
    _scrub(out_dir)
    return 0


def _cluster_ids() -> int:
    """Two models' logs of one task (fixtures/inspect_cluster_ids/) whose clustered stderr (stderr(cluster="src")) clusters
    by metadata values that Python calls equal though their JSON differs: 1, 1.0 and True; 0, -0.0 and False; 2 and 2.0
    (but not "2"); 3 and 3.0; 2**60 and float(2**60). inspect_ai keys its clusters by the Python value, so these 14
    samples are 7 clusters (`--cluster-ids`)."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, Target, accuracy, scorer, stderr
    from inspect_ai.solver import TaskState, generate

    @scorer(metrics=[accuracy(), stderr(), stderr(cluster="src")])
    def clustered():
        async def score(state: TaskState, target: Target):
            return Score(value="C" if target.text in state.output.completion else "I")
        return score

    srcs = [1, 1.0, True, 0, -0.0, False, 2, 2.0, "2", 3, 3.0, 0.5, 2 ** 60, float(2 ** 60)]
    data = [Sample(id=f"s{i}", input=f"Say {i}", target=str(i), metadata={"src": src}) for i, src in enumerate(srcs)]

    def answers(miss: int):
        calls = {"n": 0}

        def out(input, tools, tool_choice, config):      # every `miss`-th call answers wrong
            calls["n"] += 1
            said = (input[-1].text if input else "").split()[-1]
            o = ModelOutput.from_content(model="mockllm/model", content="no" if calls["n"] % miss == 0 else said)
            o.usage = ModelUsage(input_tokens=10, output_tokens=2, total_tokens=12)
            return o
        return out

    out_dir = OUT.parent / "inspect_cluster_ids"
    shutil.rmtree(out_dir, ignore_errors=True)
    for model, miss in (("model-a", 3), ("model-b", 4)):
        inspect_eval(Task(name="cluster_ids", dataset=data, solver=generate(), scorer=[clustered()]),
                     model=get_model(f"mockllm/{model}", custom_outputs=answers(miss)), log_dir=str(out_dir),
                     log_format="eval", display="none", max_samples=1)
    _scrub(out_dir)
    return 0


def _value_kinds() -> int:
    """One log (fixtures/inspect_value_kinds/) whose score values are what value_to_float reads in its less common ways:
    text that is a number (" 0.5", "1E1"), text that is not ("maybe", "C ", "inf", "nan", "0x10", ""), yes / TRUE,
    numbers, a boolean, and a list and a dict under plain (not per-key) metrics, which inspect_ai's metrics count as 0;
    2 epochs reduced by mean and max, the second epoch's value another scalar (a list or dict keeps its shape: inspect_ai
    reduces them per element) (`--value-kinds`)."""
    from inspect_ai import Epochs, Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, Target, accuracy, mean, scorer, stderr
    from inspect_ai.solver import TaskState, generate

    values = ["C", "I", "P", "N", "maybe", "C ", " 0.5", "1E1", "inf", "nan", "yes", "TRUE", 3, True, 0.25, [1, 0],
              {"a": 1, "b": 0}, "0x10", ""]

    @scorer(metrics=[accuracy(), mean(), stderr()])
    def kinds():
        async def score(state: TaskState, target: Target):
            value = values[int(target.text)]
            if isinstance(value, (list, dict)):           # inspect_ai reduces a list or dict per element: same shape
                return Score(value=value)
            scalars = [v for v in values if not isinstance(v, (list, dict))]
            return Score(value=scalars[(scalars.index(value) + 5 * (state.epoch - 1)) % len(scalars)])
        return score

    data = [Sample(id=f"s{i}", input=f"Say {i}", target=str(i)) for i in range(len(values))]

    def out(input, tools, tool_choice, config):
        o = ModelOutput.from_content(model="mockllm/model", content="ok")
        o.usage = ModelUsage(input_tokens=10, output_tokens=2, total_tokens=12)
        return o

    out_dir = OUT.parent / "inspect_value_kinds"
    shutil.rmtree(out_dir, ignore_errors=True)
    inspect_eval(Task(name="value_kinds", dataset=data, solver=generate(), scorer=[kinds()],
                      epochs=Epochs(2, ["mean", "max"])),
                 model=get_model("mockllm/model", custom_outputs=out), log_dir=str(out_dir), log_format="eval",
                 display="none", max_samples=1)
    _scrub(out_dir)

    # ../inspect_nonfinite/: scores of inf and NaN, whose mean inspect_ai stores as inf and stderr as NaN
    nonfinite = [float("nan"), 1.0, 0.0, 1.0, float("nan"), 0.5, float("inf")]

    @scorer(metrics=[mean(), stderr()])
    def nonfinite_scores():
        async def score(state: TaskState, target: Target):
            return Score(value=nonfinite[int(target.text)])
        return score

    out_dir = OUT.parent / "inspect_nonfinite"
    shutil.rmtree(out_dir, ignore_errors=True)
    for model in ("model-a", "model-b"):                  # two models: their paired comparison has inf - inf in it
        inspect_eval(Task(name="nonfinite", dataset=data[:len(nonfinite)], solver=generate(), scorer=[nonfinite_scores()]),
                     model=get_model(f"mockllm/{model}", custom_outputs=out), log_dir=str(out_dir), log_format="eval",
                     display="none", max_samples=1)
    _scrub(out_dir)
    return 0


def _instruments() -> int:
    """Eight models' logs of one task (fixtures/inspect_instruments/), each unlike model-a's in one way only, so that
    each way a second log measures with another instrument is seen alone (R35): model-b the same instrument; model-c
    graded by another grader (role "grader" bound to mockllm/lenient); model-d a scorer with other arguments
    (match(location="end")); model-e 3 epochs, not 2 (max then reduces more epochs; the mean and pass_at_2 estimate the
    same); model-f the task at version 1; model-g with no grader bound, so model_graded_qa grades with model-g itself;
    model-h one sample's target edited (q4: "Berlin, Germany"), the version not bumped (`--instruments`)."""
    from inspect_ai import Epochs, Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import get_model
    from inspect_ai.scorer import match, model_graded_qa
    from inspect_ai.solver import generate

    qs = [("2+2", "4"), ("3+5", "8"), ("France", "Paris"), ("Germany", "Berlin"), ("Peru", "Lima"),
          ("Chile", "Santiago"), ("Japan", "Tokyo"), ("Kenya", "Nairobi")]
    data = [Sample(id=f"q{i}", input=f"Question about {q}? Answer briefly.", target=t) for i, (q, t) in enumerate(qs, 1)]
    wrong = {"model-a": {"3+5", "Germany", "Chile"}, "model-b": {"France", "Kenya"}, "model-c": {"Peru"},
             "model-d": {"2+2", "Japan"}, "model-e": {"3+5"}, "model-f": {"Chile", "Kenya", "Peru"},
             "model-g": {"Germany"}, "model-h": {"3+5"}}
    # the grader's verdict depends on the question (a strict grader fails the geography, a lenient one passes all)
    graders = {"strict": {"2+2": "GRADE: C", "3+5": "GRADE: C", "Question": "GRADE: I"}, "lenient": {"Question": "GRADE: C"}}
    setup = {"model-a": {}, "model-b": {}, "model-c": {"grader": "lenient"}, "model-d": {"location": "end"},
             "model-e": {"epochs": 3}, "model-f": {"version": 1}, "model-g": {"grader": None},
             "model-h": {"edit": ("q4", "Berlin, Germany")}}

    out_dir = OUT.parent / "inspect_instruments"
    shutil.rmtree(out_dir, ignore_errors=True)
    for model, how in setup.items():
        name = f"mockllm/{model}"
        right = {"GRADE": "GRADE: C"} | {q: ("no idea" if q in wrong[model] else f"It is {t}") for q, t in qs}
        grader = how.get("grader", "strict")
        roles = {} if grader is None else {
            "grader": get_model(f"mockllm/{grader}", custom_outputs=_answers(f"mockllm/{grader}", graders[grader], (40, 4)))}
        sid, target = how.get("edit", (None, None))
        samples = [Sample(id=s.id, input=s.input, target=target) if s.id == sid else s for s in data]
        task = Task(name="instruments", dataset=samples, solver=generate(), version=how.get("version", 0),
                    scorer=[match(location=how.get("location", "any")), model_graded_qa()],
                    epochs=Epochs(how.get("epochs", 2), ["mean", "max", "pass_at_2"]))
        inspect_eval(task, model=get_model(name, custom_outputs=_answers(name, right, (25, 4))), model_roles=roles,
                     log_dir=str(out_dir), log_format="eval", display="none")
    _scrub(out_dir)
    return 0


def _deep_graders() -> int:
    """Two models' logs of one task (fixtures/inspect_deep_graders/), scored by match() and by an agent judge with no
    arguments whose grader is called two spans below its scorer span (the scorer span, an `agent` span, a `tool` span,
    then the model call): model-a's grader role bound to mockllm/strict, model-b's to mockllm/lenient. Only the models
    the judge called tell the two instruments apart (R35) (`--deep-graders`)."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import get_model
    from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, match, scorer, stderr
    from inspect_ai.solver import TaskState, generate
    from inspect_ai.util import span

    @scorer(metrics=[accuracy(), stderr()])
    def agent_judge():
        async def score(state: TaskState, target: Target):
            async with span("judge", type="agent"), span("consult", type="tool"):
                verdict = await get_model(role="grader").generate(
                    f"Question: {state.input_text} Answer: {state.output.completion} Key: {target.text}. GRADE?")
            return Score(value=CORRECT if "GRADE: C" in verdict.completion else INCORRECT)
        return score

    qs = [("2+2", "4"), ("3+5", "8"), ("France", "Paris"), ("Germany", "Berlin"), ("Peru", "Lima"), ("Japan", "Tokyo")]
    data = [Sample(id=f"q{i}", input=f"Question about {q}? Answer briefly.", target=t) for i, (q, t) in enumerate(qs, 1)]
    wrong = {"model-a": {"3+5", "Peru"}, "model-b": {"France"}}
    # the grader's verdict depends on the question (a strict grader fails the geography, a lenient one passes all)
    graders = {"strict": {"2+2": "GRADE: C", "3+5": "GRADE: C", "Question": "GRADE: I"}, "lenient": {"Question": "GRADE: C"}}
    out_dir = OUT.parent / "inspect_deep_graders"
    shutil.rmtree(out_dir, ignore_errors=True)
    for model, grader in (("model-a", "strict"), ("model-b", "lenient")):
        name = f"mockllm/{model}"
        right = {q: ("no idea" if q in wrong[model] else f"It is {t}") for q, t in qs}
        roles = {"grader": get_model(f"mockllm/{grader}", custom_outputs=_answers(f"mockllm/{grader}", graders[grader],
                                                                                  (40, 4)))}
        task = Task(name="deep_graders", dataset=data, solver=generate(), scorer=[match(), agent_judge()])
        inspect_eval(task, model=get_model(name, custom_outputs=_answers(name, right, (25, 4))), model_roles=roles,
                     log_dir=str(out_dir), log_format="eval", display="none")
    _scrub(out_dir)
    return 0


def _relogged() -> int:
    """One log in which a sample is logged twice under one member name (fixtures/inspect_relogged/): eval_set runs 120
    samples; the provider fails once on one of them, so the first attempt errors; the retry attempt seeds the same log
    file, re-runs that sample and appends its new record under the same name. Readers take the last entry of a name
    (inspect_ai's rule); the run succeeds, and the errored record stays in the archive as dead bytes, since it is under
    a tenth of the member area, the most inspect_ai leaves uncompacted (`--relogged`)."""
    import tempfile

    from inspect_ai import Task, eval_set
    from inspect_ai.dataset import Sample
    from inspect_ai.model import get_model
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    name = "mockllm/gpt-4.1-mini"
    questions = {f"Item {i:02d}:": str(2 * i) for i in range(1, 121)}
    answer = _answers(name, {k: (v if i % 4 else "no idea") for i, (k, v) in enumerate(questions.items())}, (30, 4))
    flaky = {"Item 03:": 1}

    def out(input, tools, tool_choice, config):
        prompt = input[-1].text if input else ""
        for key, left in flaky.items():
            if key in prompt and left:
                flaky[key] -= 1
                raise RuntimeError("simulated transient provider failure")
        return answer(input, tools, tool_choice, config)

    data = [Sample(id=f"s{i:02d}", input=f"{k} what is {int(v) // 2} doubled? Answer briefly.", target=v)
            for i, (k, v) in enumerate(questions.items(), 1)]
    out_dir = OUT.parent / "inspect_relogged"
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        eval_set(Task(name="relogged", dataset=data, solver=generate(), scorer=match()),
                 model=get_model(name, custom_outputs=out), log_dir=tmp, display="none", retry_attempts=1, retry_wait=0.1,
                 fail_on_error=True)
        (log,) = Path(tmp).glob("*.eval")
        names = [i.filename for i in zipfile.ZipFile(log).infolist()]
        assert len(names) > len(set(names)), "inspect_ai compacted the log: no member is logged twice"
        shutil.copyfile(log, out_dir / "relogged.eval")
    _scrub(out_dir)
    return 0


def _sampleless() -> int:
    """Two models' logs of one task (fixtures/inspect_sampleless/): model-a's written with log_samples=False, so the
    log holds its header (results, stats.model_usage) and no sample record; model-b's with its samples
    (`--sampleless`)."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import get_model
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    keys = {"2+2": "4", "3+5": "8", "France": "Paris", "Peru": "Lima", "Japan": "Tokyo", "Ghana": "Accra"}
    data = [Sample(id=f"q{i}", input=f"Question about {q}? Answer briefly.", target=t)
            for i, (q, t) in enumerate(keys.items(), 1)]
    out_dir = OUT.parent / "inspect_sampleless"
    shutil.rmtree(out_dir, ignore_errors=True)
    for model, log_samples in (("model-a", False), ("model-b", True)):
        name = f"mockllm/{model}"
        inspect_eval(Task(name="sampleless", dataset=data, solver=generate(), scorer=match()),
                     model=get_model(name, custom_outputs=_answers(name, {**keys, "Peru": "Quito"}, (25, 4))),
                     log_dir=str(out_dir), log_format="eval", display="none", log_samples=log_samples)
    _scrub(out_dir)
    return 0


def _agentic() -> int:
    """Two models' logs of one agentic task (fixtures/inspect_agentic/): a react() agent with bash() and think() in
    inspect_ai's local sandbox calls bash, then submits; scored by includes() and by model_graded_fact(), whose
    grader role is bound to mockllm/grader. model-a submits the right answer on 4 of 6 samples, model-b on 5
    (`--agentic`)."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.agent import react
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import includes, model_graded_fact
    from inspect_ai.tool import bash, think

    answers = {f"t{i}": str(6 * i) for i in range(1, 7)}
    wrong = {"model-a": {"t2", "t5"}, "model-b": {"t5"}}

    def agent(model: str):
        name = f"mockllm/{model}"
        turns: dict[str, int] = {}

        def out(input, tools, tool_choice, config):
            task = next(k for k in answers if f"Task {k}:" in " ".join(m.text for m in input))
            turn = turns[task] = turns.get(task, 0) + 1
            if turn == 1:
                o = ModelOutput.for_tool_call(model=name, tool_name="bash", tool_arguments={"cmd": f"echo {answers[task]}"})
            else:
                said = "no idea" if task in wrong[model] else answers[task]
                o = ModelOutput.for_tool_call(model=name, tool_name="submit", tool_arguments={"answer": said})
            o.usage = ModelUsage(input_tokens=60 + 20 * turn, output_tokens=8, total_tokens=68 + 20 * turn,
                                 input_tokens_cache_read=30, reasoning_tokens=2)
            return o
        return get_model(name, custom_outputs=out)

    def grade(input, tools, tool_choice, config):          # C when the expert answer is in the submission
        prompt = input[-1].text
        expert = prompt.split("[Expert]: ", 1)[1].split("\n", 1)[0]
        submission = prompt.split("[Submission]: ", 1)[1].split("\n***", 1)[0]
        o = ModelOutput.from_content(model="mockllm/grader", content="GRADE: C" if expert in submission else "GRADE: I")
        o.usage = ModelUsage(input_tokens=90, output_tokens=5, total_tokens=95)
        return o

    grader = get_model("mockllm/grader", custom_outputs=grade)
    data = [Sample(id=k, input=f"Task {k}: use bash to print {int(v) // 6} times six, then submit it.", target=v)
            for k, v in answers.items()]
    out_dir = OUT.parent / "inspect_agentic"
    shutil.rmtree(out_dir, ignore_errors=True)
    for model in ("model-a", "model-b"):
        inspect_eval(Task(name="agentic", dataset=data, solver=react(tools=[bash(), think()]),
                          scorer=[includes(), model_graded_fact()], sandbox="local"),
                     model=agent(model), model_roles={"grader": grader}, log_dir=str(out_dir), log_format="eval",
                     display="none", message_limit=20)
    _scrub(out_dir)
    return 0


def main() -> int:
    import inspect_ai

    modes = {"--old": _old, "--features": _features, "--retry": _retry, "--grouped": _grouped, "--rescore": _rescore,
             "--scales": _scales, "--epoch-errors": _epoch_errors, "--group-keys": _group_keys,
             "--metric-kinds": _metric_kinds, "--cluster-ids": _cluster_ids,
             "--value-kinds": _value_kinds, "--instruments": _instruments, "--deep-graders": _deep_graders,
             "--relogged": _relogged, "--sampleless": _sampleless,
             "--agentic": _agentic}
    for flag, write in modes.items():
        if flag in sys.argv[1:]:
            return write()
    if inspect_ai.__version__ != INSPECT_VERSION:
        print(f"warning: inspect_ai {inspect_ai.__version__}, the fixtures were made with {INSPECT_VERSION}")
    for sub in ("both_models", "score_on_error", "statuses"):
        shutil.rmtree(OUT / sub, ignore_errors=True)
    (OUT / "both_models").mkdir(parents=True)
    _eval(OUT / "both_models", "model-a", A, "eval", fail_on_error=False, message_limit=10)
    _eval(OUT / "both_models", "model-b", B, "json", fail_on_error=False, message_limit=10)
    _eval(OUT / "score_on_error", "model-a", A, "eval", fail_on_error=False, score_on_error=True)
    _eval(OUT / "statuses", "model-b", B, "eval", fail_on_error=True)                     # -> error
    ctx = multiprocessing.get_context("spawn")
    for sig in (signal.SIGINT, signal.SIGKILL):   # Ctrl-C: "cancelled"; a killed writer: "started"
        child = ctx.Process(target=_started, args=(str(OUT / "statuses"),))
        child.start()
        time.sleep(20)                   # the other samples are written; the hanging one never is
        os.kill(child.pid, sig)
        child.join(60)
        if child.is_alive():
            os.kill(child.pid, signal.SIGKILL)
            child.join()
    _scrub(OUT)
    for p in sorted(OUT.rglob("*.*")):
        print(p.relative_to(ROOT), p.stat().st_size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
