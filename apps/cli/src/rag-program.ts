import { spawn } from 'node:child_process'
import type { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { ANSWER_MODES, type AskOptions, ROLES, SEARCH_MODES, SOURCE_KINDS } from '@rag/api-contract'
import { ConfigError, cliConfig, gatewayUrlOf, modelsCommandConfig } from '@rag/config'
import { createGatewayClient, GatewayError } from '@rag/gateway-client'
import { createLogger } from '@rag/log'
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { runAskCommand } from './ask-command.ts'
import { runCalibrateCommand } from './calibrate-command.ts'
import { type CollectionsAction, runCollectionsCommand } from './collections-command.ts'
import { runDocumentsCommand } from './documents-command.ts'
import { runIngestCommand } from './ingest-command.ts'
import { type KeysAction, runKeysCommand } from './keys-command.ts'
import { type ModelsAction, runModelsCommand } from './models-command.ts'
import { runSearchCommand } from './search-command.ts'
import { changeSourceCommand, type SourceChangeOptions } from './source-change-command.ts'
import {
  listSourcesCommand,
  removeSourceCommand,
  type SourceAddOptions,
  sourceRequestOf,
  syncSourceCommand,
} from './sources-command.ts'
import { runSynonymsCommand, type SynonymsAction } from './synonyms-command.ts'

export interface RagIo {
  stdout: Writable & { isTTY?: boolean }
  stderr: Writable
  env: Record<string, string | undefined>
  /** How a wait the gateway asks for (Retry-After) passes (default: the clock). */
  wait?: (seconds: number) => Promise<void>
}

/** Exit codes: 0 done, 1 the work failed (a document, a question, the gateway), 2 a usage error. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const

const positiveInteger = (value: string) => {
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a whole number ≥ 1')
  return number
}
const nonNegativeInteger = (value: string) => {
  const number = Number(value)
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError('expected a whole number ≥ 0')
  return number
}
const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

// eval and bench are programs of their own (apps/eval, apps/bench): run, not imported.
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))
// eval from its bundle while that is current (apps/eval/bin/eval.js), bench from its sources.
const PROGRAMS = {
  eval: ['apps/eval/bin/eval.js'],
  bench: ['--import', 'tsx', 'apps/bench/src/main.ts'],
} as const

function runProgram(program: readonly string[], args: string[], env: RagIo['env']): Promise<number> {
  return new Promise((resolve) => {
    const entry = program.map((part) => (part.startsWith('apps/') ? `${repoRoot}${part}` : part))
    const child = spawn(process.execPath, [...entry, ...args], {
      stdio: 'inherit',
      env,
      cwd: repoRoot,
    })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)))
  })
}

/**
 * `rag <command>`: the platform from a terminal. Each command has `--help`; `--json` prints one JSON
 * document on stdout and nothing else (progress goes to stderr); an expected error is one line on
 * stderr (`--debug` adds the stack) with a meaningful exit code.
 */
export async function runRag(argv: string[], io: RagIo): Promise<number> {
  let exitCode: number = EXIT.ok
  const debug = argv.includes('--debug')
  const gateway = (progress: Writable) => {
    const config = cliConfig.parse(io.env)
    return createGatewayClient({
      baseUrl: gatewayUrlOf(config),
      apiKey: config.gateway.apiKeys[0],
      ...(io.wait ? { wait: io.wait } : {}),
      onRateLimited: (seconds, _path, why) =>
        progress.write(
          why === 'unavailable'
            ? `the gateway's database or queue is away for a moment: trying again in ${seconds} s\n`
            : `rate limited by the gateway: waiting ${seconds} s\n`,
        ),
    })
  }
  const program = new Command('rag')
    .description('Ask questions answered from your documents only, from the terminal')
    .option('--debug', 'print the stack trace of an error')
    .showHelpAfterError('(add --help for usage)')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })

  program
    .command('ingest')
    .description('Upload files and folders and follow each document to ready (or failed, with why)')
    .argument(
      '<paths...>',
      'files, folders (walked; unsupported files are reported) or http(s) URLs of web pages',
    )
    .option('--collection <name>', 'the collection the documents belong to')
    .option('--tags <a,b>', 'comma-separated tags', list)
    .option('--concurrency <n>', 'uploads at once', positiveInteger, 4)
    .option('--json', 'print the result as JSON (progress on stderr)')
    .action(async (paths: string[], options) => {
      exitCode = await runIngestCommand({
        paths,
        client: gateway(io.stderr),
        output: options.json ? io.stderr : io.stdout,
        collection: options.collection,
        tags: options.tags,
        concurrency: options.concurrency,
        result: options.json
          ? (result) => io.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
          : undefined,
      })
    })

  program
    .command('ask')
    .description('Ask a question; prints the answer and its sources')
    .argument('<question...>', 'the question (quotes optional)')
    .addOption(new Option('--mode <mode>', 'retrieval').choices(SEARCH_MODES))
    .option('--top-k <n>', 'passages the answer is built from', positiveInteger)
    .option('--fusion', 'RAG-Fusion: the LLM rephrases, every phrasing is searched')
    .option('--rerank', 'cross-encoder reranking on')
    .option('--no-rerank', 'cross-encoder reranking off')
    .addOption(new Option('--answer <kind>', 'how to answer').choices(ANSWER_MODES))
    .option('--collection <name>', "only this collection's documents")
    .option('--no-parents', 'hand the LLM the matched chunks, not their sections')
    .option('--json', 'print the whole result as JSON')
    .action(async (words: string[], options) => {
      const askOptions: AskOptions = {}
      if (options.mode) askOptions.mode = options.mode
      if (options.topK) askOptions.topK = options.topK
      if (options.fusion) askOptions.fusion = true
      if (options.rerank !== undefined) askOptions.rerank = options.rerank
      if (options.answer) askOptions.answer = options.answer
      if (options.collection) askOptions.collection = options.collection
      if (options.parents === false) askOptions.parents = false
      // Ctrl-C while the answer is written cancels the question, so the LLM is free for the next.
      const interrupted = new AbortController()
      const interrupt = () => interrupted.abort()
      process.once('SIGINT', interrupt)
      exitCode = await runAskCommand({
        question: words.join(' ').trim(),
        options: askOptions,
        client: gateway(io.stderr),
        output: io.stdout,
        progress: io.stderr,
        signal: interrupted.signal,
        json: options.json,
      }).finally(() => process.off('SIGINT', interrupt))
    })

  program
    .command('search')
    .description('Ranked passages for a query (no answer written)')
    .argument('<query...>', 'what to look for')
    .option('-k, --k <n>', 'how many passages', positiveInteger)
    .addOption(new Option('--mode <mode>', 'retrieval').choices(SEARCH_MODES))
    .option('--collection <name>', "only this collection's documents")
    .option('--json', 'print the result as JSON')
    .action(async (words: string[], options) => {
      exitCode = await runSearchCommand({
        query: words.join(' ').trim(),
        options: { k: options.k, mode: options.mode, collection: options.collection },
        client: gateway(io.stderr),
        output: io.stdout,
        json: options.json,
      })
    })

  program
    .command('documents')
    .description('The documents, newest first, with status and chunk counts')
    .option('--collection <name>', "only this collection's documents")
    .option('--json', 'print them as JSON')
    .action(async (options) => {
      exitCode = await runDocumentsCommand({
        client: gateway(io.stderr),
        output: io.stdout,
        collection: options.collection,
        json: options.json,
      })
    })

  program
    .command('collections')
    .description(
      'The collections a key may read (list), or a new one before its first document (create, an admin key)',
    )
    .addArgument(new Argument('<action>', 'what to do').choices(['list', 'create']))
    .argument('[name]', 'create: the new collection')
    .option('--json', 'print JSON')
    .action(async (action: CollectionsAction, name: string | undefined, options) => {
      exitCode = await runCollectionsCommand({
        client: gateway(io.stderr),
        output: io.stdout,
        action,
        name,
        json: options.json,
      })
    })

  program
    .command('keys')
    .description('API keys with a role and collections: create (shown once), list, revoke (an admin key)')
    .addArgument(new Argument('<action>', 'what to do').choices(['create', 'list', 'revoke']))
    .argument('[id]', 'revoke: the key id (rag keys list)')
    .addOption(new Option('--role <role>', 'create: what it may do').choices(ROLES).default('reader'))
    .option(
      '--collections <names>',
      'create: the collections it may see, comma-separated (default: all)',
      list,
    )
    .option('--name <name>', 'create: what to call it')
    .option('--json', 'print JSON')
    .action(async (action: KeysAction, id: string | undefined, options) => {
      exitCode = await runKeysCommand({
        client: gateway(io.stderr),
        output: io.stdout,
        action,
        id,
        role: options.role,
        collections: options.collections,
        name: options.name,
        json: options.json,
      })
    })

  program
    .command('calibrate')
    .description(
      'Fit a collection\'s refusal on its team\'s questions (JSON Lines: {"question", "source"}, source null when the documents hold no answer; without --questions, the collection\'s evaluation set made from feedback); reported cross-validated (an editor key)',
    )
    .option('--questions <file>', 'the questions, one JSON object a line (default: the evaluation set)')
    .option('--collection <name>', 'the collection', 'default')
    .option('--json', 'print JSON')
    .action(async (options) => {
      exitCode = await runCalibrateCommand({
        client: gateway(io.stderr),
        output: io.stdout,
        collection: options.collection,
        questions: options.questions,
        json: options.json,
      })
    })

  program
    .command('synonyms')
    .description(
      "A collection's own synonyms (Solr format: `a, b` or `a => b`): show, set FILE, clear (set and clear: an editor key)",
    )
    .addArgument(new Argument('<action>', 'what to do').choices(['show', 'set', 'clear']))
    .argument('[file]', 'set: the synonyms file')
    .option('--collection <name>', 'the collection', 'default')
    .action(async (action: SynonymsAction, file: string | undefined, options) => {
      exitCode = await runSynonymsCommand({
        client: gateway(io.stderr),
        output: io.stdout,
        action,
        collection: options.collection,
        ...(file ? { file } : {}),
      })
    })

  const sources = program
    .command('sources')
    .description(
      'Places kept in sync with a collection (web sites, WebDAV, S3, Git): add, list, sync, change, remove',
    )
  // A source's credentials, the same for add and change: secrets from variables and files only.
  const withCredentialOptions = (command: Command) =>
    command
      .option('--username <name>', 'webdav, web: the user')
      .option('--password-env <VAR>', 'webdav, web: the variable holding the password')
      .option('--token-env <VAR>', 'git over https, web (Bearer): the variable holding an access token')
      .option('--ssh-key-file <path>', 'git over ssh: a private key file')
      .option('--access-key-id <id>', 's3: the access key id')
      .option('--secret-key-env <VAR>', 's3: the variable holding the secret access key')
  withCredentialOptions(
    sources
      .command('add')
      .description('Add a source (editor of its collection); its first sync starts at once')
      .argument('<name>', 'its name; its documents are named under it (name/path)')
      .addOption(new Option('--kind <kind>', 'the place').choices(SOURCE_KINDS).makeOptionMandatory())
      .requiredOption('--collection <name>', 'the collection its documents belong to')
      .option(
        '--url <url>',
        'web: the start page or sitemap (.xml); webdav: the folder URL; git: what git clones (https, ssh, a path: admin)',
      )
      .option(
        '--depth <links>',
        'web: links followed from the start page (default 3; a sitemap: 0)',
        nonNegativeInteger,
      )
      .option('--bucket <name>', 's3: the bucket')
      .option('--prefix <prefix>', 's3: only objects under it')
      .option('--region <region>', 's3: the region')
      .option('--endpoint <url>', 's3: an S3-compatible service (MinIO, R2…)')
      .option('--ref <ref>', 'git: a branch or tag (default: the remote HEAD)')
      .option('--path <folder>', 'git: only files under it')
      .option('--every <minutes>', 'sync on a schedule', positiveInteger),
  ).action(async (name: string, options: SourceAddOptions) => {
    const source = await gateway(io.stderr).addSource(await sourceRequestOf(name, options, io.env))
    io.stdout.write(`${source.name}: added (${source.kind}, collection ${source.collection}); syncing now\n`)
  })
  sources
    .command('list')
    .description('The sources this key sees, with their last sync')
    .action(async () => {
      exitCode = await listSourcesCommand(gateway(io.stderr), io.stdout)
    })
  sources
    .command('sync')
    .description('Sync a source now and follow it (exit 1 when partial or failed, with the reasons)')
    .argument('<name>', 'the source')
    .option('--no-wait', 'ask for it and return')
    .action(async (name: string, options: { wait: boolean }) => {
      exitCode = await syncSourceCommand(gateway(io.stderr), io.stdout, name, { wait: options.wait })
    })
  withCredentialOptions(
    sources
      .command('change')
      .description(
        'Change a source (editor): new credentials (a token that expired), its schedule, or its settings; what was indexed stays. New credentials or settings are synced at once and followed (exit 1 when partial or failed)',
      )
      .argument('<name>', 'the source')
      .option(
        '--url <url>',
        'web, webdav, git: the new address (the new place is synced; what is gone there goes)',
      )
      .option('--depth <links>', 'web: links followed', nonNegativeInteger)
      .option('--bucket <name>', 's3: the bucket')
      .option('--prefix <prefix>', 's3: only objects under it')
      .option('--region <region>', 's3: the region')
      .option('--endpoint <url>', 's3: an S3-compatible service')
      .option('--ref <ref>', 'git: a branch or tag')
      .option('--path <folder>', 'git: only files under it')
      .option('--every <minutes>', 'sync on a schedule', positiveInteger)
      .option('--no-schedule', 'sync only when asked'),
  )
    .option('--no-credentials', 'remove its credentials')
    .option('--no-wait', 'do not follow the sync the change starts')
    .action(async (name: string, options: SourceChangeOptions & { wait: boolean }) => {
      const { wait, ...change } = options
      exitCode = await changeSourceCommand(gateway(io.stderr), io.stdout, name, change, io.env, { wait })
    })
  sources
    .command('remove')
    .description('Remove a source and the documents it brought')
    .argument('<name>', 'the source')
    .action(async (name: string) => {
      exitCode = await removeSourceCommand(gateway(io.stderr), io.stdout, name)
    })

  program
    .command('models')
    .description('The configured models: list, verify (sha256; exit 1 when missing), pull (download now)')
    .addArgument(new Argument('<action>', 'what to do').choices(['list', 'verify', 'pull']))
    .option('--json', 'print the inventory as JSON')
    .action(async (action: ModelsAction, options) => {
      const config = modelsCommandConfig.parse(io.env)
      const logger = createLogger({ name: 'models', level: config.log.level, destination: io.stderr })
      exitCode = await runModelsCommand(action, config, {
        output: io.stdout,
        logger,
        json: options.json,
      })
    })

  for (const [name, main] of Object.entries(PROGRAMS))
    program
      .command(name)
      .description(
        name === 'eval'
          ? 'Evaluate retrieval and answers on a QA set (see rag eval --help)'
          : 'Benchmarks (see rag bench --help)',
      )
      .helpOption(false)
      .allowUnknownOption()
      .passThroughOptions()
      .argument('[args...]')
      .action(async (args: string[]) => {
        exitCode = await runProgram(main, args, io.env)
      })

  // Global options work after a subcommand too (`rag models pull --debug`, as the hint says).
  for (const command of program.commands)
    if (!Object.hasOwn(PROGRAMS, command.name()))
      command.option('--debug', 'print the stack trace of an error')

  try {
    await program.parseAsync(argv, { from: 'user' })
    return exitCode
  } catch (error) {
    if (error instanceof CommanderError)
      // Help and version are exits, not errors; commander has already printed what was wrong.
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.help'
        ? EXIT.ok
        : error.code === 'commander.version'
          ? EXIT.ok
          : EXIT.usage
    const message = error instanceof Error ? error.message : String(error)
    io.stderr.write(`rag: ${message}\n`)
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`)
    else if (!(error instanceof GatewayError) && !(error instanceof ConfigError))
      io.stderr.write('(run with --debug for the stack trace)\n')
    return error instanceof ConfigError ? EXIT.usage : EXIT.failed
  }
}
