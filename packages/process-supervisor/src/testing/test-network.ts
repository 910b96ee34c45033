import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)
const ip = (...args: string[]) => run('ip', args)

export interface TestNetwork {
  /** A host's address on the network. */
  address(host: string): string
  /** The command line that runs `command` on a host (in its network namespace). */
  onHost(host: string, command: string, args: string[]): { command: string; args: string[] }
  /** Takes a host's link down: it can no longer reach, or be reached by, any other. */
  cut(host: string): Promise<void>
  close(): Promise<void>
}

/**
 * Hosts for a test: one network namespace each (its own interfaces, loopback and ports, as a
 * separate machine has), wired by veth pairs to a bridge in this namespace, where the test itself
 * sits at .254. Needs root (CAP_NET_ADMIN); `canCreateNetworks` tells beforehand.
 */
export async function createTestNetwork(hosts: string[]): Promise<TestNetwork> {
  const tag = `${process.pid % 100_000}`
  const subnet = `10.${200 + (process.pid % 50)}.${process.pid % 250}`
  const bridge = `rb${tag}`
  const names = new Map(
    hosts.map((host, i) => [
      host,
      { ns: `rag-${tag}-${host}`, link: `rv${tag}x${i}`, ip: `${subnet}.${i + 1}` },
    ]),
  )
  const made: string[] = []
  const close = async () => {
    for (const ns of made) await ip('netns', 'del', ns).catch(() => undefined)
    await ip('link', 'del', bridge).catch(() => undefined)
  }
  try {
    await ip('link', 'add', bridge, 'type', 'bridge')
    await ip('addr', 'add', `${subnet}.254/24`, 'dev', bridge)
    await ip('link', 'set', bridge, 'up')
    for (const { ns, link, ip: address } of names.values()) {
      await ip('netns', 'add', ns)
      made.push(ns)
      await ip('link', 'add', link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns)
      await ip('link', 'set', link, 'master', bridge)
      await ip('link', 'set', link, 'up')
      await ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', 'eth0')
      await ip('-n', ns, 'link', 'set', 'eth0', 'up')
      await ip('-n', ns, 'link', 'set', 'lo', 'up')
    }
  } catch (error) {
    await close()
    throw error
  }
  const of = (host: string) => {
    const entry = names.get(host)
    if (!entry) throw new Error(`no host ${host} in this network`)
    return entry
  }
  return {
    address: (host) => of(host).ip,
    onHost: (host, command, args) => ({
      command: 'ip',
      args: ['netns', 'exec', of(host).ns, command, ...args],
    }),
    cut: async (host) => {
      await ip('link', 'set', of(host).link, 'down')
    },
    close,
  }
}

/** Whether this process may create network namespaces (root, or CAP_NET_ADMIN and CAP_SYS_ADMIN). */
export async function canCreateNetworks(): Promise<{ ok: boolean; reason?: string }> {
  const probe = `rag-probe-${process.pid}`
  try {
    await ip('netns', 'add', probe)
    await ip('netns', 'del', probe)
    return { ok: true }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message.split('\n')[0] : String(error) }
  }
}
