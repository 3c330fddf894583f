import { type SQL, type SQLWrapper, and, sql } from "drizzle-orm";
import { onlyDigits } from "~/lib/documents";
import { likeContains, normalizeSearch } from "~/lib/search";
import { prepared } from "./db";

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
 * The bare digits of a search typed as a document or phone number with its punctuation
 * ("123.456.789-09" → "12345678909"), which keys also hold bare (`buildSearchText`); null when it
 * is anything else, or already bare, or under three digits.
 */
export function typedDigits(q: string): string | null {
  const bare = onlyDigits(q);
  return bare.length >= 3 && /^[\d\s.\-/()]+$/.test(q) && bare !== q.trim() ? bare : null;
}

/**
 * A word of two characters as a query of a trigram index: every trigram in the index's vocabulary
 * (its fts5vocab 'row' table) that starts with the word, joined by OR; null when none does. A key
 * indexed with a space after it holds the word exactly when it holds one of those trigrams.
 */
export function pairTermsQuery(vocabulary: "patients_search_terms" | "surgery_guides_search_terms" | "documents_search_terms", word: string): string | null {
  // Every term with the word's two characters first sorts from the word to the word followed by
  // the last code point.
  const terms = prepared(`select term from ${vocabulary} where term >= ? and term < ?`).pluck().all(word, `${word}\u{10FFFF}`) as string[];
  return terms.length ? `(${terms.map(ftsPhrase).join(" OR ")})` : null;
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
