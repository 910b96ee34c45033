-- A source's name is its collection's: two teams may each have a "handbook", and an editor adding
-- one learns nothing of the names in collections it cannot see (one name space over every
-- collection answered 409 for a name only another team had used).
ALTER TABLE sources DROP CONSTRAINT sources_name_key;
ALTER TABLE sources ADD CONSTRAINT sources_collection_name_key UNIQUE (collection, name);
