-- Keyword statistics per collection. BM25's document frequencies, corpus size and average lengths,
-- and the answerability signals' "words the library has never seen", were library-wide: a
-- reader's scores moved when another collection gained documents, and one question told whether a
-- word existed in a collection the reader was not given. Each collection is now a world of its
-- own: its counts are kept here, and a search sums those of the collections it reads.
DROP TABLE term_stats;
DROP TABLE corpus_stats;

CREATE TABLE term_stats (
  collection text NOT NULL,
  term text NOT NULL,
  df bigint NOT NULL,
  -- Term first: a search looks up its terms in every collection it reads at once.
  PRIMARY KEY (term, collection)
);

CREATE TABLE corpus_stats (
  collection text PRIMARY KEY,
  chunks bigint NOT NULL DEFAULT 0,
  terms bigint NOT NULL DEFAULT 0,
  bigrams bigint NOT NULL DEFAULT 0,
  sections bigint NOT NULL DEFAULT 0,
  section_terms bigint NOT NULL DEFAULT 0
);

-- A chunk's collection is its document's. The triggers read it from documents, so a document's
-- chunks and sections must go before the document row does: a BEFORE DELETE trigger removes them
-- (the foreign keys' cascades would run after the row is gone, with nothing left to join).
CREATE FUNCTION documents_remove_contents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sections WHERE document_id = OLD.id;
  RETURN OLD;
END $$;
CREATE TRIGGER documents_remove_contents BEFORE DELETE ON documents
  FOR EACH ROW EXECUTE FUNCTION documents_remove_contents();

CREATE OR REPLACE FUNCTION chunks_stats_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Sorted, so concurrent transactions lock term rows in one order (no deadlocks).
  INSERT INTO term_stats (collection, term, df)
  SELECT collection, term, count(*) FROM (
    SELECT DISTINCT n.id, d.collection, t.term FROM added n JOIN documents d ON d.id = n.document_id,
           unnest(n.terms) AS t(term)
    UNION ALL
    SELECT n.id, d.collection, ' ' || p.pair FROM added n JOIN documents d ON d.id = n.document_id,
           unnest(n.bigrams) AS p(pair)
  ) x
  GROUP BY term, collection ORDER BY term, collection
  ON CONFLICT (term, collection) DO UPDATE SET df = term_stats.df + excluded.df;
  INSERT INTO corpus_stats AS c (collection, chunks, terms, bigrams)
  SELECT d.collection, count(*), coalesce(sum(n.term_count), 0), coalesce(sum(n.bigram_count), 0)
    FROM added n JOIN documents d ON d.id = n.document_id
   GROUP BY d.collection ORDER BY d.collection
  ON CONFLICT (collection) DO UPDATE SET chunks = c.chunks + excluded.chunks, terms = c.terms + excluded.terms,
                                         bigrams = c.bigrams + excluded.bigrams;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION chunks_stats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE term_stats s SET df = s.df - x.n
    FROM (SELECT collection, term, count(*) AS n FROM (
            SELECT DISTINCT o.id, d.collection, t.term FROM removed o JOIN documents d ON d.id = o.document_id,
                   unnest(o.terms) AS t(term)
            UNION ALL
            SELECT o.id, d.collection, ' ' || p.pair FROM removed o JOIN documents d ON d.id = o.document_id,
                   unnest(o.bigrams) AS p(pair)
          ) r
          GROUP BY term, collection ORDER BY term, collection) x
   WHERE s.term = x.term AND s.collection = x.collection;
  UPDATE corpus_stats c SET chunks = c.chunks - x.chunks, terms = c.terms - x.terms, bigrams = c.bigrams - x.bigrams
    FROM (SELECT d.collection, count(*) AS chunks, coalesce(sum(o.term_count), 0) AS terms,
                 coalesce(sum(o.bigram_count), 0) AS bigrams
            FROM removed o JOIN documents d ON d.id = o.document_id GROUP BY d.collection) x
   WHERE c.collection = x.collection;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION sections_stats_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO corpus_stats AS c (collection, sections, section_terms)
  SELECT d.collection, count(*), coalesce(sum(n.term_count), 0)
    FROM added n JOIN documents d ON d.id = n.document_id
   GROUP BY d.collection ORDER BY d.collection
  ON CONFLICT (collection) DO UPDATE SET sections = c.sections + excluded.sections,
                                         section_terms = c.section_terms + excluded.section_terms;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION sections_stats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE corpus_stats c SET sections = c.sections - x.sections, section_terms = c.section_terms - x.terms
    FROM (SELECT d.collection, count(*) AS sections, coalesce(sum(o.term_count), 0) AS terms
            FROM removed o JOIN documents d ON d.id = o.document_id GROUP BY d.collection) x
   WHERE c.collection = x.collection;
  RETURN NULL;
END $$;

-- Every count made again from the tables, as the triggers keep them: after a bulk load with the
-- triggers off, a re-analysis of the index, and here, for what an installation already holds.
CREATE FUNCTION recount_keyword_stats() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- TRUNCATE locks both until commit: a chunk stored meanwhile counts itself after it.
  TRUNCATE term_stats, corpus_stats;
  INSERT INTO term_stats (collection, term, df)
  SELECT collection, term, count(*) FROM (
    SELECT DISTINCT c.id, d.collection, t.term FROM chunks c JOIN documents d ON d.id = c.document_id,
           unnest(c.terms) AS t(term)
    UNION ALL
    SELECT c.id, d.collection, ' ' || p.pair FROM chunks c JOIN documents d ON d.id = c.document_id,
           unnest(c.bigrams) AS p(pair)
  ) x GROUP BY collection, term;
  INSERT INTO corpus_stats (collection, chunks, terms, bigrams, sections, section_terms)
  SELECT coalesce(ch.collection, se.collection), coalesce(ch.chunks, 0), coalesce(ch.terms, 0),
         coalesce(ch.bigrams, 0), coalesce(se.sections, 0), coalesce(se.terms, 0)
    FROM (SELECT d.collection, count(*) AS chunks, coalesce(sum(c.term_count), 0) AS terms,
                 coalesce(sum(c.bigram_count), 0) AS bigrams
            FROM chunks c JOIN documents d ON d.id = c.document_id GROUP BY d.collection) ch
    FULL JOIN (SELECT d.collection, count(*) AS sections, coalesce(sum(s.term_count), 0) AS terms
                 FROM sections s JOIN documents d ON d.id = s.document_id GROUP BY d.collection) se
      ON se.collection = ch.collection;
END $$;

SELECT recount_keyword_stats();
