-- BM25 needs, per query term, how many chunks contain it (df), and the corpus size and average
-- chunk length. Counting them at query time over a GIN index costs hundreds of milliseconds for
-- common terms at 100k chunks, so they are kept up to date here, by statement-level triggers that
-- see every insert and delete of chunks (cascades from sections and documents included).
CREATE TABLE term_stats (
  term text PRIMARY KEY,
  df bigint NOT NULL
);

CREATE TABLE corpus_stats (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  chunks bigint NOT NULL,
  terms bigint NOT NULL
);
INSERT INTO corpus_stats (chunks, terms) VALUES (0, 0);

CREATE FUNCTION chunks_stats_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Sorted, so concurrent transactions lock term rows in one order (no deadlocks).
  INSERT INTO term_stats (term, df)
  SELECT term, count(*) FROM (SELECT DISTINCT n.id, t.term FROM added n, unnest(n.terms) AS t(term)) x
  GROUP BY term ORDER BY term
  ON CONFLICT (term) DO UPDATE SET df = term_stats.df + excluded.df;
  UPDATE corpus_stats SET chunks = chunks + (SELECT count(*) FROM added),
                          terms = terms + (SELECT coalesce(sum(term_count), 0) FROM added);
  RETURN NULL;
END $$;

CREATE FUNCTION chunks_stats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE term_stats s SET df = s.df - x.n
    FROM (SELECT term, count(*) AS n FROM (SELECT DISTINCT o.id, t.term FROM removed o, unnest(o.terms) AS t(term)) d
          GROUP BY term ORDER BY term) x
   WHERE s.term = x.term;
  UPDATE corpus_stats SET chunks = chunks - (SELECT count(*) FROM removed),
                          terms = terms - (SELECT coalesce(sum(term_count), 0) FROM removed);
  RETURN NULL;
END $$;

CREATE TRIGGER chunks_stats_insert AFTER INSERT ON chunks REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION chunks_stats_added();
CREATE TRIGGER chunks_stats_delete AFTER DELETE ON chunks REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION chunks_stats_removed();
