/**
 * Escapes LIKE wildcards so a search for `50%` matches the text, not everything. Not lowered
 * here: the SQL applies Postgres' lower(), the same function that built search_text (JS and
 * Postgres disagree on characters such as U+0130).
 */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
