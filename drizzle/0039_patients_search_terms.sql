-- The patients' trigram index's own vocabulary, one row per trigram (fts5vocab, read-only, nothing
-- stored): a search word of two characters is answered from the index as the trigrams that start
-- with it ('pa' → "pac" OR "pai" OR …), where it was tested in each of 200 000 keys
-- (app/models/patient.server.ts).
CREATE VIRTUAL TABLE `patients_search_terms` USING fts5vocab('patients_search', 'row');
