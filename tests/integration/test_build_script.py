"""scripts/build.sh and CMake refuse a static build without simdjson's
sources (deps/simdjson, made per checkout by scripts/deps.sh), instead of
quietly linking Debian's shared libsimdjson into a binary meant to be copied."""
import os
import shutil
import subprocess
import tempfile
import unittest

from tuiclient import ROOT


class StaticBuildNeedsSimdjsonSources(unittest.TestCase):
    def checkout_without_deps(self, tmp):
        for part in ("CMakeLists.txt", "daemon", "cmake", "scripts"):
            src = os.path.join(ROOT, part)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(tmp, part))
            elif os.path.exists(src):
                shutil.copy(src, tmp)
        return tmp

    def test_build_script_says_what_is_missing(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.checkout_without_deps(tmp)
            p = subprocess.run(["bash", "scripts/build.sh", "b"], cwd=tmp, capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("deps/simdjson/simdjson.cpp is missing", p.stderr)
            self.assertIn("scripts/deps.sh", p.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "b")), "nothing was configured")

    def test_cmake_refuses_a_static_build(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.checkout_without_deps(tmp)
            p = subprocess.run(["cmake", "-S", ".", "-B", "b", "-DTUIDRIVER_STATIC=ON"], cwd=tmp,
                               capture_output=True, text=True, timeout=120)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("sources are missing", " ".join(p.stderr.split()))


if __name__ == "__main__":
    unittest.main()
