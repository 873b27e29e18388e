/**
 * The longest message a person may send: people paste logs and dumps, so a few MB are taken and stored whole — the
 * model's context window decides what fits (a message larger than it is refused with the sizes, nothing sent).
 * Its own module, free of zod: the CLI checks it before it loads any schema.
 */
export const PROMPT_MAX_CHARS = 4_000_000
