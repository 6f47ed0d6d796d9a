/**
 * Task prompts of EmbeddingGemma. The model was trained with a task prefix in front of every input, and its
 * retrieval quality depends on using the document prompt for stored passages and the query prompt for searches.
 * Source: Google's EmbeddingGemma model card, "Prompt instructions"
 * (https://ai.google.dev/gemma/docs/embeddinggemma/model_card); the same strings are the `Retrieval-document`
 * and `Retrieval-query` prompts of the model's sentence-transformers config on ollama.com.
 */

/**
 * Prefix for passages that are stored and searched over: the model card's document format
 * `title: {title | "none"} | text: {content}`, with the title left as "none" because atoms carry no title of their own.
 */
export const DOCUMENT_PROMPT = "title: none | text: ";

/** Prefix for search queries: the model card's retrieval query format `task: search result | query: {content}`. */
export const QUERY_PROMPT = "task: search result | query: ";

/** A text with its prompt: `prefix + text`. */
export type PromptFn = (text: string) => string;

/** Document prompt applied to one text (see {@link DOCUMENT_PROMPT}). */
export const documentPrompt: PromptFn = (text) => DOCUMENT_PROMPT + text;

/** Query prompt applied to one text (see {@link QUERY_PROMPT}). */
export const queryPrompt: PromptFn = (text) => QUERY_PROMPT + text;
