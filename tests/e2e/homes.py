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
# scripts/drift.sh points this at another install of the CLIs (their newest
# releases, say); the pinned ones in tests/e2e/node_modules otherwise.
MODULES = os.environ.get("TUIDRIVER_E2E_MODULES") or os.path.join(E2E, "node_modules")
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
    "pi": os.path.join(MODULES, "@mariozechner", "pi-coding-agent", "dist", "cli.js"),
    "qwen": os.path.join(MODULES, "@qwen-code", "qwen-code", "cli-entry.js"),
    "kilo": os.path.join(MODULES, "@kilocode", "cli-linux-x64", "bin", "kilo"),
    # The platform packages' native executables, as the packages' own
    # launchers (npm-loader.js, bin/cline) find them.
    "copilot": os.path.join(MODULES, "@github", "copilot-linux-x64", "copilot"),
    "cline": os.path.join(MODULES, "@cline", "cli-linux-x64", "bin", "cline"),
}

# Copilot's executable unpacks its ~235 MB application on first run; every
# test shares one copy, kept with the pinned install (npm ci starts afresh).
COPILOT_PKG_CACHE = os.path.join(MODULES, ".cache", "copilot")


def bin_dir(home):
    """A directory with claude/codex/gemini links, to put first on PATH."""
    d = os.path.join(home, ".tuidriver-bin")
    os.makedirs(d, exist_ok=True)
    for name, target in EXECUTABLES.items():
        link = os.path.join(d, name)
        # lexists: a link to a CLI that is not installed dangles, and is
        # there all the same when a second daemon starts on this home.
        if not os.path.lexists(link):
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
    seed_plugin_install(d, "@kilocode/plugin" if name == "kilo" else "@opencode-ai/plugin")
    return env


def seed_plugin_install(config_dir, package):
    """The config folder as the CLI leaves it once it has installed its
    plugin package there. On a fresh home it runs `npm install` at every
    start (from the registry, under a lock in ~/.local/state/<name>/locks);
    four sessions started together in one home then waited on one
    another's install, one for over 120 s. The CLI skips the install when
    node_modules exists and package-lock.json lists every dependency of
    package.json, so the tests reach no registry."""
    os.makedirs(os.path.join(config_dir, "node_modules"), exist_ok=True)
    deps = {"dependencies": {package: "*"}}
    for name, content in (("package.json", deps), ("package-lock.json", {"packages": {"": deps}})):
        with open(os.path.join(config_dir, name), "w") as f:
            json.dump(content, f)


def pi_env(home, cwd, port, bare):
    """pi reaches the fake through a provider of its own in models.json (the
    only way to give it a base URL), on the Chat Completions API. PI_OFFLINE
    keeps it from downloading fd and ripgrep at startup. A bare home has the
    provider but no settings: pi picks it as the only model it has a key for."""
    env = base_env(home)
    env["PI_OFFLINE"] = "1"
    agent = os.path.join(home, ".pi", "agent")
    os.makedirs(agent, exist_ok=True)
    models = {"providers": {"fake": {
        "baseUrl": "http://127.0.0.1:%d/v1" % port,
        "api": "openai-completions",
        "apiKey": "sk-fake-pi",
        # The fake is a plain Chat Completions server: a system message, no
        # reasoning_effort.
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
        "models": [{"id": "fake-model", "name": "Fake Model"}],
    }}}
    with open(os.path.join(agent, "models.json"), "w") as f:
        json.dump(models, f)
    if not bare:
        settings = {"defaultProvider": "fake", "defaultModel": "fake-model",
                    "enableInstallTelemetry": False}
        with open(os.path.join(agent, "settings.json"), "w") as f:
            json.dump(settings, f)
    return env


def qwen_env(home, cwd, port, bare):
    """Qwen Code on an OpenAI-compatible provider given by OPENAI_* variables;
    settings.json picks that auth type (a bare home has none, so Qwen asks how
    to authenticate)."""
    env = base_env(home)
    env.update({
        "OPENAI_API_KEY": "sk-fake-qwen",
        "OPENAI_BASE_URL": "http://127.0.0.1:%d/v1" % port,
        "OPENAI_MODEL": "fake-model",
    })
    if not bare:
        qwen = os.path.join(home, ".qwen")
        os.makedirs(qwen, exist_ok=True)
        settings = {
            "security": {"auth": {"selectedType": "openai"}},
            "model": {"name": "fake-model"},
            "general": {"enableAutoUpdate": False},
            "privacy": {"usageStatisticsEnabled": False},
            # The packaged rg is not executable without npm's install
            # scripts; Qwen says so in a box at startup, then uses its own grep.
            "tools": {"useRipgrep": False},
        }
        with open(os.path.join(qwen, "settings.json"), "w") as f:
            json.dump(settings, f)
    return env
def opencode_env(home, cwd, port, bare):
    return opencode_like_env("opencode", home, cwd, port, bare)


def kilo_env(home, cwd, port, bare):
    return opencode_like_env("kilo", home, cwd, port, bare)


def copilot_env(home, cwd, port, bare):
    """Copilot with its own key for an OpenAI-compatible provider (no
    GitHub login): the COPILOT_PROVIDER_* variables, and COPILOT_OFFLINE so
    it reaches nothing else. The pre-answered home trusts the folder in
    ~/.copilot/config.json; the bare one gets the folder-trust question."""
    env = base_env(home)
    env.update({
        "COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:%d/v1" % port,
        "COPILOT_PROVIDER_TYPE": "openai",
        "COPILOT_PROVIDER_API_KEY": "sk-fake-copilot",
        "COPILOT_PROVIDER_WIRE_API": "completions",
        # Limits for a model Copilot's catalog does not know (else it warns).
        "COPILOT_PROVIDER_MAX_PROMPT_TOKENS": "128000",
        "COPILOT_PROVIDER_MAX_OUTPUT_TOKENS": "16000",
        "COPILOT_MODEL": "fake-model",
        "COPILOT_OFFLINE": "1",
        "COPILOT_PKG_CACHE_HOME": COPILOT_PKG_CACHE,
    })
    d = os.path.join(home, ".copilot")
    os.makedirs(d, exist_ok=True)
    if not bare:
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump({"trustedFolders": [os.path.realpath(cwd)]}, f)
    return env


def cline_env(home, cwd, port, bare):
    """Cline with an openai-compatible provider in
    ~/.cline/data/settings/providers.json (what `cline auth -p
    openai-compatible -b URL` writes). The pre-answered home marks its two
    notices (ClinePass, Cline Desktop) as shown; the bare one gets them."""
    env = base_env(home)
    settings = os.path.join(home, ".cline", "data", "settings")
    os.makedirs(settings, exist_ok=True)
    providers = {"version": 1, "lastUsedProvider": "openai-compatible", "modes": {}, "providers": {
        "openai-compatible": {"settings": {
            "provider": "openai-compatible", "apiKey": "sk-fake-cline", "model": "fake-model",
            "baseUrl": "http://127.0.0.1:%d/v1" % port},
        "updatedAt": "2026-01-01T00:00:00.000Z", "tokenSource": "manual"}}}
    with open(os.path.join(settings, "providers.json"), "w") as f:
        json.dump(providers, f)
    if not bare:
        notices = {"shown": {"cline-cli-cline-pass-intro": True, "cline-cli-desktop-launch": True}}
        with open(os.path.join(settings, "cli-notices.json"), "w") as f:
            json.dump(notices, f)
    return env


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
    "copilot": copilot_env,
    "cline": cline_env,
    "pi": pi_env,
    "qwen": qwen_env,
}


def make_env(cli, home, cwd, port, bare=False):
    os.makedirs(home, exist_ok=True)
    if cli not in ENVIRONMENTS:
        raise ValueError("unknown CLI %r" % cli)
    env = ENVIRONMENTS[cli](home, cwd, port, bare)
    env.update(CI_VARIABLES)
    return env
