import { beforeAll, describe, expect, it } from 'vitest'
import { fingerprint, loadParser } from './sql-fingerprint.ts'

beforeAll(() => loadParser())

const same = (a: string, b: string) => fingerprint(a).fingerprint === fingerprint(b).fingerprint

describe('fingerprint', () => {
  it('is one statement whatever its constants, list lengths or test schema', () => {
    expect(same('SELECT * FROM t WHERE id IN (1, 2, 3)', 'SELECT * FROM t WHERE id IN (7)')).toBe(true)
    expect(same('SELECT 1 FROM "t_ask_0123abcd".documents', 'SELECT 1 FROM "t_cli_99887766".documents')).toBe(
      true,
    )
    expect(same('SELECT a FROM t', 'SELECT b FROM t')).toBe(false)
  })

  it('takes a utility statement for one whatever its literal or the schema it names', () => {
    expect(
      same(
        "COMMENT ON SCHEMA eval_x_0123456789ab IS 'rag eval corpus; last used 2026-12-01T18:25:35.655Z'",
        "COMMENT ON SCHEMA eval_y_ba9876543210 IS 'rag eval corpus; last used 2026-12-02T09:00:00.000Z'",
      ),
    ).toBe(true)
    expect(
      same('DROP SCHEMA "eval_old_marked_test" CASCADE', 'DROP SCHEMA eval_sample_0123456789ab CASCADE'),
    ).toBe(true)
    expect(same('DROP SCHEMA x CASCADE', 'CREATE SCHEMA IF NOT EXISTS x')).toBe(false)
  })
})
