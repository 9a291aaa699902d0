"""Real MCP implementations installed in isolated, cached environments."""

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
from mcp_skew.realpeers._named import model_names, named_peer

__all__ = [
    "MARKER_NAME",
    "EnvironmentUnavailable",
    "NpmEnv",
    "PythonEnv",
    "cache_root",
    "ensure_npm_env",
    "ensure_python_env",
    "env_key",
    "model_names",
    "named_peer",
    "npm_env",
    "python_env",
]
