"""Ship the dbt project inside the wheel: `pip install evalhouse-*.whl` then `evalhouse demo` works without a
checkout. The project's folders (dbt_project.yml, models/, macros/, seeds/, tests/dbt/, docs/dbt/ and the
coder-eval runs the demo loads) are copied into evalhouse/project/ of the built package; an editable install
(make install) keeps reading them from the checkout (evalhouse.paths.PROJECT_DIR)."""
from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
PROJECT_PARTS = ["dbt_project.yml", "models", "macros", "seeds", "tests/dbt", "docs/dbt", "fixtures/coder_eval"]


class build_py_with_project(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        dest = Path(self.build_lib) / "evalhouse" / "project"
        shutil.rmtree(dest, ignore_errors=True)
        for part in PROJECT_PARTS:
            src = ROOT / part
            if src.is_dir():
                shutil.copytree(src, dest / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif src.is_file():
                (dest / part).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / part)


setup(cmdclass={"build_py": build_py_with_project})
