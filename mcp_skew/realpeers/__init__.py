"""Real MCP implementations installed in isolated, cached environments, and the drift checks
of their models (the models themselves, data, are the catalogue in :mod:`mcp_skew.peers`)."""

from mcp_skew.realpeers._envs import (
    MARKER_NAME,
    EnvironmentUnavailable,
    NpmEnv,
    PythonEnv,
    cache_root,
    ensure_npm_env,
    ensure_python_env,
    env_key,
    npm_env,
    python_env,
)

__all__ = [
    "MARKER_NAME",
    "EnvironmentUnavailable",
    "NpmEnv",
    "PythonEnv",
    "cache_root",
    "ensure_npm_env",
    "ensure_python_env",
    "env_key",
    "npm_env",
    "python_env",
]
