/**
 * The longest message a person may send: people paste logs and dumps, so a few MB are taken and stored whole — the
 * model's context window decides what fits (a message larger than it is refused with the sizes, nothing sent).
 * Its own module, free of zod: the CLI checks it before it loads any schema.
 */
export const PROMPT_MAX_CHARS = 4_000_000

/** Files one prompt may carry (pasted, dropped, or sent by an editor). */
export const ATTACHMENTS_MAX = 10
/** All of one prompt's files together (what one message to the host may carry besides its text). */
export const ATTACHMENTS_TOTAL_MAX_BYTES = 15_000_000
/** Anthropic's limit per image (5 MB); OpenAI's is larger. */
export const ATTACHMENT_IMAGE_MAX_BYTES = 5_000_000
/** A text file's content goes into the prompt whole: the context window is the real limit; this keeps one message sane. */
export const ATTACHMENT_TEXT_MAX_BYTES = 1_000_000
/** A file an `@path` mention attaches is read up to this size; larger ones are named for the agent to read itself. */
export const MENTION_MAX_BYTES = 256_000
