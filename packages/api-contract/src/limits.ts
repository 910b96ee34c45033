// The sizes a request may have, defined once: the routes refuse past them, the client, the web
// app's inputs and the MCP tools' schemas take them from here.

/** A question, a chat message or a search query, in characters. */
export const MAX_QUESTION_CHARS = 2000
/** A collection's name. */
export const MAX_COLLECTION_CHARS = 200
/** A conversation's title. */
export const MAX_TITLE_CHARS = 200
/** A web page's address (POST /documents/url). */
export const MAX_URL_CHARS = 2000
/** Passages an answer is built from. */
export const MAX_TOP_K = 20
/** Hits a search returns. */
export const MAX_SEARCH_K = 50
/** Tokens a generated answer may be asked to have at most. */
export const MAX_ANSWER_TOKENS = 8192
/** Documents listed at once. */
export const MAX_LIST_LIMIT = 1000
/** A feedback's comment, in characters. */
export const MAX_FEEDBACK_COMMENT_CHARS = 2000
