"""Fresh homes and environments for the agent CLIs, pointed at the fake API.

make_env(cli, home, cwd, port, bare=False) writes the CLI's config into
`home` (nothing when bare, so the CLI shows its first-run dialogs) and
returns the environment variables to run it with.
"""
import json
import os
import subprocess
import sys
import tempfile

E2E = os.path.dirname(os.path.abspath(__file__))
MODULES = os.path.join(E2E, "node_modules")
FAKE_KEY = "sk-ant-fake-0123456789abcdefghijklmnopqrstuvwxyz"

# The CLIs' own executables inside node_modules, found without relying on
# npm install scripts (CI installs with --ignore-scripts).
EXECUTABLES = {
    "claude": os.path.join(MODULES, "@anthropic-ai", "claude-code-linux-x64", "claude"),
    "codex": os.path.join(MODULES, "@openai", "codex", "bin", "codex.js"),
    "gemini": os.path.join(MODULES, "@google", "gemini-cli", "bundle", "gemini.js"),
    # opencode-ai's bin/opencode.exe is a placeholder its postinstall
    # replaces; the real executable is in the platform package.
    "opencode": os.path.join(MODULES, "opencode-linux-x64", "bin", "opencode"),
    "kilo": os.path.join(MODULES, "@kilocode", "cli-linux-x64", "bin", "kilo"),
}


def bin_dir(home):
    """A directory with claude/codex/gemini links, to put first on PATH."""
    d = os.path.join(home, ".tuidriver-bin")
    os.makedirs(d, exist_ok=True)
    for name, target in EXECUTABLES.items():
        link = os.path.join(d, name)
        if not os.path.exists(link):
            os.symlink(target, link)
    return d


def base_env(home):
    return {
        "HOME": home,
        "PATH": bin_dir(home) + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
        "NO_UPDATE_NOTIFIER": "1",
    }


def claude_env(home, cwd, port, bare):
    env = base_env(home)
    env.update({
        "ANTHROPIC_API_KEY": FAKE_KEY,
        "ANTHROPIC_BASE_URL": "http://127.0.0.1:%d" % port,
        "DISABLE_TELEMETRY": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
    })
    if not bare:
        config = {
            "hasCompletedOnboarding": True,
            "customApiKeyResponses": {"approved": [FAKE_KEY[-20:]], "rejected": []},
            "projects": {os.path.realpath(cwd): {"hasTrustDialogAccepted": True}},
        }
        with open(os.path.join(home, ".claude.json"), "w") as f:
            json.dump(config, f)
        # Ask before running tools (auto mode would decide by itself), so
        # the tests can see a permission question.
        os.makedirs(os.path.join(home, ".claude"), exist_ok=True)
        with open(os.path.join(home, ".claude", "settings.json"), "w") as f:
            json.dump({"permissions": {"defaultMode": "default"}}, f)
    else:
        # A bare home still skips the first-run onboarding: it checks that
        # api.anthropic.com is reachable, which no offline test can answer.
        with open(os.path.join(home, ".claude.json"), "w") as f:
            json.dump({"hasCompletedOnboarding": True}, f)
    return env


CODEX_CONFIG = '''model_provider = "fake"
model = "%(model)s"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:%(port)d/v1"
env_key = "OPENAI_API_KEY"
wire_api = "responses"

[features]
daemon_auto_start = false
plugins = false
'''

CODEX_ANSWERS = '''
[notice.model_migrations]
"gpt-5.5" = "gpt-6-sol"

[projects."%(cwd)s"]
trust_level = "trusted"
'''


# Where Codex's own sandbox cannot start (a debootstrap chroot, Docker's
# default seccomp profile: bubblewrap needs unprivileged user and mount
# namespaces), every command it runs fails. There the test homes run
# commands unsandboxed, and a rule makes Codex ask before the commands the
# tests expect questions about (touch), so the approval questions stay
# (0.169 refuses approval_policy "untrusted", which would ask for every
# command not known to be safe). TUIDRIVER_E2E_CODEX_SANDBOX=off forces that
# configuration (to test it on a machine where the sandbox works).
CODEX_NO_SANDBOX = '''approval_policy = "on-request"
sandbox_mode = "danger-full-access"
'''
CODEX_ASK_RULES = '''prefix_rule(
    pattern = ["touch"],
    decision = "prompt",
    justification = "the tests answer a question before a file is made",
)
'''
_sandbox_starts = {}


def codex_sandbox_starts():
    """Whether Codex's sandbox can run a command here (asked once per run):
    unprivileged user and mount namespaces work (`unshare -Urm true`, what
    bubblewrap needs), and Codex itself runs `true` in its sandbox."""
    if os.environ.get("TUIDRIVER_E2E_CODEX_SANDBOX") == "off":
        return False
    if "answer" not in _sandbox_starts:
        probe = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"],
                               capture_output=True, timeout=30)
        if probe.returncode == 0:
            with tempfile.TemporaryDirectory(prefix="tuidriver-e2e-sandbox-probe-") as scratch:
                probe = subprocess.run([EXECUTABLES["codex"], "sandbox", "--", "true"],
                                       env={**base_env(scratch), "OPENAI_API_KEY": "sk-fake-codex"},
                                       capture_output=True, timeout=60)
        _sandbox_starts["answer"] = probe.returncode == 0
        if probe.returncode != 0:
            sys.stderr.write("homes.py: Codex's sandbox cannot start here (%s); the Codex homes run "
                             "commands unsandboxed, asking first\n"
                             % probe.stderr.decode(errors="replace").strip().splitlines()[-1:])
    return _sandbox_starts["answer"]


def codex_env(home, cwd, port, bare):
    env = base_env(home)
    env["OPENAI_API_KEY"] = "sk-fake-codex"
    os.makedirs(os.path.join(home, ".codex"), exist_ok=True)
    # Even a bare home points Codex at the fake (there is no other way to
    # set the provider) and keeps its background server off; it lacks the
    # answers to the model-migration and trust questions. Its model is
    # gpt-5.5, the one Codex offers to migrate from ("Meet GPT-6 Sol"); with
    # no model set at all, 0.169.0 picks GPT-6.1-Sol and asks nothing.
    text = CODEX_CONFIG % {"port": port, "model": "gpt-5.5" if bare else "gpt-5"}
    if not codex_sandbox_starts():
        text = CODEX_NO_SANDBOX + text
        os.makedirs(os.path.join(home, ".codex", "rules"), exist_ok=True)
        with open(os.path.join(home, ".codex", "rules", "default.rules"), "w") as f:
            f.write(CODEX_ASK_RULES)
    if not bare:
        text += CODEX_ANSWERS % {"cwd": os.path.realpath(cwd)}
    with open(os.path.join(home, ".codex", "config.toml"), "w") as f:
        f.write(text)
    return env


def gemini_env(home, cwd, port, bare):
    env = base_env(home)
    env.update({
        "GEMINI_API_KEY": "fake-gemini-key",
        "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:%d" % port,
    })
    if not bare:
        gemini = os.path.join(home, ".gemini")
        os.makedirs(gemini, exist_ok=True)
        settings = {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "privacy": {"usageStatisticsEnabled": False},
            # Code blocks without line numbers, so code comes back as sent.
            "ui": {"showLineNumbers": False},
        }
        with open(os.path.join(gemini, "settings.json"), "w") as f:
            json.dump(settings, f)
        with open(os.path.join(gemini, "trustedFolders.json"), "w") as f:
            json.dump({os.path.realpath(cwd): "TRUST_FOLDER"}, f)
    return env


# opencode and Kilo (a fork of opencode) are configured alike: no
# models.dev fetch, no update check, no default plugins (an npm install at
# startup), no LSP download.
OPENCODE_OFF = ("DISABLE_MODELS_FETCH", "DISABLE_DEFAULT_PLUGINS", "DISABLE_LSP_DOWNLOAD", "DISABLE_CLAUDE_CODE",
                "DISABLE_AUTOUPDATE", "DISABLE_SHARE")


def opencode_like_env(name, home, cwd, port, bare):
    """A provider built on the Anthropic SDK the CLI bundles, with the
    loopback base URL, in ~/.config/<name>/<name>.json."""
    env = base_env(home)
    env.update({"%s_%s" % (name.upper(), flag): "1" for flag in OPENCODE_OFF})
    config = {
        "autoupdate": False,
        "share": "disabled",
        "model": "fake/fake-model",
        "small_model": "fake/fake-model",
        "provider": {"fake": {
            "npm": "@ai-sdk/anthropic",
            "name": "Fake Anthropic",
            "options": {"baseURL": "http://127.0.0.1:%d/v1" % port, "apiKey": FAKE_KEY},
            "models": {"fake-model": {"name": "Fake Model"}},
        }},
    }
    if not bare:
        # Ask before running a command, so the tests can see the question.
        config["permission"] = {"bash": "ask", "edit": "ask"}
    d = os.path.join(home, ".config", name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".json"), "w") as f:
        json.dump(config, f)
    return env


def opencode_env(home, cwd, port, bare):
    return opencode_like_env("opencode", home, cwd, port, bare)


def kilo_env(home, cwd, port, bare):
    return opencode_like_env("kilo", home, cwd, port, bare)


# Set in every agent's environment, as a CI runner sets them: Gemini skips
# its interactive UI when any is set, unless its engine strips them. Setting
# them here makes every run see what CI sees.
CI_VARIABLES = {"CI": "true", "CONTINUOUS_INTEGRATION": "true", "CI_JOB_ID": "1"}


# Each CLI's home and environment, by engine name: one line per CLI.
ENVIRONMENTS = {
    "claude": claude_env,
    "codex": codex_env,
    "gemini": gemini_env,
    "opencode": opencode_env,
    "kilo": kilo_env,
}


def make_env(cli, home, cwd, port, bare=False):
    os.makedirs(home, exist_ok=True)
    if cli not in ENVIRONMENTS:
        raise ValueError("unknown CLI %r" % cli)
    env = ENVIRONMENTS[cli](home, cwd, port, bare)
    env.update(CI_VARIABLES)
    return env
