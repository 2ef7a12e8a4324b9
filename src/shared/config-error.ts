// The one error of a configuration the process cannot start with: its message says which variable and why.
export class ConfigError extends Error {}
