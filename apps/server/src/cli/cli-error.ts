/** A refusal the CLI prints as one line and exits 1 on. */
export class CliError extends Error {}
