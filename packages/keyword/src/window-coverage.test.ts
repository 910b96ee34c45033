import { expect, it } from 'vitest'
import { windowCoverage } from './window-coverage.ts'

const weights = new Map([
  ['warranty', 3],
  ['length', 1],
])

it('counts the question terms found together, not the same terms scattered over a long passage', () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`)
  const together = [...filler(40), 'warranty', 'x', 'length', ...filler(40)]
  const scattered = ['warranty', ...filler(60), 'length']
  expect(windowCoverage(weights, together, 30)).toBe(1)
  expect(windowCoverage(weights, scattered, 30)).toBe(0.75)
  expect(windowCoverage(weights, filler(10), 30)).toBe(0)
})

it('a term repeated inside the window still counts once, and leaves only with its last copy', () => {
  const terms = ['warranty', 'warranty', ...Array(28).fill('x'), 'length']
  // The second "warranty" is still inside the window when "length" arrives.
  expect(windowCoverage(weights, terms, 30)).toBe(1)
  expect(windowCoverage(weights, ['warranty', ...Array(29).fill('x'), 'length'], 30)).toBe(0.75)
})
