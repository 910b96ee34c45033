import { describe, expect, it } from 'vitest'
import { gitFailure as failure } from './git-failure.ts'

const gitFailure = (stderr: string, hasCredential: boolean) =>
  failure(stderr, { hasCredential, knownHosts: '/data/sources/ab12.known_hosts' })

// What git prints on the failures a team meets (git 2.39, OpenSSH 9.2), and what the sync says.
describe('gitFailure', () => {
  it('names a refused token instead of a prompt that was not allowed', () => {
    const said = gitFailure(
      "fatal: could not read Username for 'https://git.example.com': terminal prompts disabled\n",
      true,
    )
    expect(said).toMatch(/^the server refused the source’s token .*\(git: fatal: could not read Username/)
    expect(gitFailure("fatal: Authentication failed for 'https://git.example.com/a.git/'\n", false)).toMatch(
      /^the server wants a token: give the source one/,
    )
  })

  it('names a refused key, without the hint git adds to every failure', () => {
    const said = gitFailure(
      'root@127.0.0.1: Permission denied (publickey).\r\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n',
      true,
    )
    expect(said).toBe(
      'the server refused the source’s ssh key (git: root@127.0.0.1: Permission denied (publickey). fatal: Could not read from remote repository.)',
    )
  })

  it('names a changed host key', () => {
    const said = gitFailure(
      '@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@@@@@@\nHost key verification failed.\nfatal: Could not read from remote repository.\n',
      true,
    )
    expect(said).toMatch(
      /^the server’s host key changed since the first sync .*: if the new key is right, delete \/data\/sources\/ab12\.known_hosts and sync again/,
    )
  })

  it('keeps what git said when the cause is another', () => {
    expect(gitFailure("fatal: couldn't find remote ref refs/heads/nope\n", false)).toBe(
      "fatal: couldn't find remote ref refs/heads/nope",
    )
  })
})
