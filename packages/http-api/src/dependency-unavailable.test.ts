import { describe, expect, it } from 'vitest'
import { unavailableDependency } from './dependency-unavailable.ts'

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })

describe('a service being away, told from a fault', () => {
  it('names Postgres restarting or unreachable, and Redis gone', () => {
    expect(
      unavailableDependency(withCode('terminating connection due to administrator command', '57P01')),
    ).toBe('the database')
    expect(unavailableDependency(new Error('Connection terminated unexpectedly'))).toBe('the database')
    expect(unavailableDependency(withCode('the database system is starting up', '57P03'))).toBe(
      'the database',
    )
    const refused = new AggregateError([withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')])
    expect(unavailableDependency(refused)).toBe('the database or the queue')
    expect(unavailableDependency(new Error('Connection is closed.'))).toBe('the queue (Redis)')
    expect(unavailableDependency(new Error('wrapped', { cause: new Error('Connection terminated') }))).toBe(
      'the database',
    )
  })

  it('leaves every other error a fault (500)', () => {
    expect(
      unavailableDependency(new TypeError("Cannot read properties of undefined (reading 'id')")),
    ).toBeNull()
    expect(
      unavailableDependency(withCode('duplicate key value violates unique constraint', '23505')),
    ).toBeNull()
    expect(unavailableDependency('a string')).toBeNull()
  })
})
