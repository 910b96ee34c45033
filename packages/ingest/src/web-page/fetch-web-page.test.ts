import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchWebPage } from './fetch-web-page.ts'
import { isPrivateAddress } from './private-address.ts'

// A site on loopback: a page, a slow one, a PDF, a big one, and redirects (one to 127.0.0.2,
// which these tests treat as the private network: loopback itself must be reachable for them).
let server: Server
let base: string
let closed = 0
// A deadline no answering page comes near on a loaded machine; the page that never answers has
// a short one of its own (only the deadline can end it, so nothing races).
const limits = { maxBytes: 100_000, timeoutMs: 60_000, maxRedirects: 3, allowPrivate: false }
const only127_0_0_2 = (address: string) => address === '127.0.0.2'

beforeAll(async () => {
  server = createServer((request, response) => {
    const port = (server.address() as AddressInfo).port
    switch (request.url) {
      case '/page':
        return response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end('<h1>見出し</h1><p>本文</p>')
      case '/slow':
        return // never answers
      case '/file.pdf':
        return response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4')
      case '/big':
        response.writeHead(200, { 'content-type': 'text/html' })
        return response.end(`<p>${'x'.repeat(200_000)}</p>`)
      case '/to-page':
        return response.writeHead(302, { location: '/page' }).end()
      case '/to-private':
        return response.writeHead(302, { location: `http://127.0.0.2:${port}/page` }).end()
      case '/loop':
        return response.writeHead(302, { location: '/loop' }).end()
      case '/closes-once':
        // The first request finds its connection closed under it (a kept-alive socket the server
        // had just timed out), the next one an answer.
        closed += 1
        if (closed === 1) return request.socket.destroy()
        return response.writeHead(200, { 'content-type': 'text/html' }).end('<p>second try</p>')
      default:
        return response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const fetchOf = (path: string, overrides = {}) =>
  fetchWebPage(`${base}${path}`, { ...limits, ...overrides }, only127_0_0_2)

describe('fetching a web page', () => {
  it('sends a GET again, once, when the connection is closed under it before any answer', async () => {
    const page = await fetchOf('/closes-once')
    expect(Buffer.from(page.html).toString()).toContain('second try')
    expect(closed).toBe(2)
  })

  it('returns the page, following a redirect, without the fragment', async () => {
    const page = await fetchOf('/to-page#part')
    expect(page.url).toBe(`${base}/page`)
    expect(Buffer.from(page.html).toString()).toContain('見出し')
  })

  it('refuses, clearly, what it must not take', async () => {
    await expect(fetchOf('/slow', { timeoutMs: 1_000 })).rejects.toMatchObject({
      status: 504,
      message: expect.stringMatching(/did not answer within 1 s/),
    })
    await expect(fetchOf('/file.pdf')).rejects.toMatchObject({
      status: 415,
      message: expect.stringMatching(/not an HTML page \(content type application\/pdf\)/),
    })
    await expect(fetchOf('/big')).rejects.toMatchObject({ status: 413 })
    await expect(fetchOf('/to-private')).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/private address/),
    })
    await expect(fetchOf('/loop')).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(/redirects more than 3 times/),
    })
    await expect(fetchOf('/missing')).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(/answered 404/),
    })
    await expect(fetchWebPage('file:///etc/passwd', limits)).rejects.toMatchObject({ status: 400 })
    await expect(fetchWebPage('not a url', limits)).rejects.toMatchObject({ status: 400 })
  })

  it('refuses loopback and private networks unless allowed', async () => {
    await expect(fetchWebPage(`${base}/page`, limits)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/URL_FETCH_ALLOW_PRIVATE/),
    })
    await expect(fetchWebPage('http://localhost/page', limits)).rejects.toMatchObject({ status: 400 })
    // Loopback written as an IPv4-compatible IPv6 address is loopback.
    const port = new URL(base).port
    await expect(fetchWebPage(`http://[::127.0.0.1]:${port}/page`, limits)).rejects.toMatchObject({
      status: 400,
    })
    expect((await fetchWebPage(`${base}/page`, { ...limits, allowPrivate: true })).url).toBe(`${base}/page`)
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      // IPv4 inside IPv6: NAT64 and 6to4 reach the address they carry.
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::127.0.0.1',
      '2002:7f00:1::1',
      '2002:a9fe:a9fe::',
      // IPv4-compatible (deprecated, still dialled as the IPv4 address) and IPv4-translated.
      '::127.0.0.1',
      '::a9fe:a9fe',
      '::ffff:0:127.0.0.1',
      // Reserved, documentation, benchmarking, broadcast, Teredo.
      '240.0.0.1',
      '192.0.2.10',
      '198.51.100.7',
      '203.0.113.5',
      '198.18.0.1',
      '255.255.255.255',
      '2001:db8::1',
      '2001::1',
    ])
      expect(isPrivateAddress(address), address).toBe(true)
    for (const address of ['8.8.8.8', '133.242.0.1', '2001:4860:4860::8888', '64:ff9b::808:808', '::8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false)
    // This machine's own address, public or not, is here, not elsewhere.
    expect(isPrivateAddress('133.242.0.1', new Set(['133.242.0.1']))).toBe(true)
  })
})
