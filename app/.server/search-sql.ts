import { type SQL, type SQLWrapper, and, sql } from "drizzle-orm";
import { likeContains, normalizeSearch } from "~/lib/search";

/** The words of a search, normalised like the stored keys ("João  da Silva" → joao, da, silva). */
export function searchWords(q: string): string[] {
  return [...new Set(normalizeSearch(q).split(" ").filter(Boolean))].slice(0, 8);
}

/** `text` contains `word` (LIKE wildcards in the word are matched literally). */
export function likeWord(text: SQLWrapper, word: string): SQL {
  return sql`${text} like ${likeContains(word)} escape '\\'`;
}

/** An FTS5 phrase: the word matched literally anywhere in the key (a trigram index answers substrings). */
export function ftsPhrase(word: string): string {
  return `"${word.replace(/"/g, '""')}"`;
}

/**
 * Every word of the search must match, in any order and anywhere: "joao silva" finds
 * "João da Silva", and "silva figueiredo" finds Silva's appointment with Dr. Figueiredo.
 * `perWord` says where one word may match (one column, or any of several).
 */
export function matchAllWords(q: string, perWord: (word: string) => SQL): SQL | undefined {
  const words = searchWords(q);
  if (words.length === 0) return undefined;
  return and(...words.map(perWord));
}
