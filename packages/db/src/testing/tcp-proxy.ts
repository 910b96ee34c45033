import { createConnection, createServer, type Socket } from 'node:net'

/**
 * A service address that can be moved, as a virtual IP, a DNS name or a pgbouncer in front of
 * Postgres is moved by an operator (or Patroni) after a failover: connections go to the current
 * target; moving it cuts the connections open to the old one.
 */
export interface TcpProxy {
  port: number
  moveTo(targetPort: number): void
  close(): Promise<void>
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let target = targetPort
  const open = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target })
    open.add(client).add(upstream)
    const end = () => {
      client.destroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    moveTo(port) {
      target = port
      for (const socket of open) socket.destroy()
      open.clear()
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
