import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Debian's Dovecot as an unprivileged process with its own config, a passwd-file (or one password for
// any user) and a temporary maildir, on a free port of 127.0.0.1: no system service. The e-mail tests
// and the e-mail eval tasks start one each.

/** The Dovecot binary: BUREAU_DOVECOT if set (a path that does not exist means "none"), else Debian's. */
export function findDovecot(): string | undefined {
  const wanted = process.env.BUREAU_DOVECOT
  if (wanted) return existsSync(wanted) ? wanted : undefined
  return ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot'].find((path) => existsSync(path))
}

export const DOVECOT = findDovecot()

/** CI (`.ci/run` sets BUREAU_CI=1) installs Dovecot, so there a missing binary is a failure, not a skip. */
export const DOVECOT_REQUIRED = Boolean(process.env.BUREAU_CI || process.env.CI)

export const DOVECOT_MISSING =
  'Dovecot is not installed (apt-get install -y dovecot-imapd): the e-mail tests and eval tasks run against a local Dovecot'

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Who Dovecot runs as: `nobody` when the tests run as root (CI containers), else the current user. */
function runAs(): { uid: number; gid: number; user: string; group: string } {
  const uid = process.getuid?.() ?? 0
  if (uid === 0)
    return {
      uid: 65534,
      gid: 65534,
      user: 'nobody',
      group: execFileSync('getent', ['group', '65534']).toString().split(':')[0]!,
    }
  const gid = process.getgid?.() ?? 0
  const user = execFileSync('id', ['-un']).toString().trim()
  return { uid, gid, user, group: execFileSync('id', ['-gn']).toString().trim() }
}

function config(dir: string, port: number, who: ReturnType<typeof runAs>, anyUser?: string): string {
  const passdb = anyUser
    ? `passdb {\n  driver = static\n  args = password=${anyUser}\n}`
    : `passdb {\n  driver = passwd-file\n  args = scheme=PLAIN ${dir}/users\n}`
  return `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = /dev/stderr
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
login_trusted_networks =
default_internal_user = ${who.user}
default_internal_group = ${who.group}
default_login_user = ${who.user}
mail_location = maildir:~/Maildir
mail_privileged_group =
${passdb}
userdb {
  driver = static
  args = uid=${who.uid} gid=${who.gid} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
`
}

function waitForGreeting(port: number, deadline: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1')
      socket.once('data', (data) => {
        socket.destroy()
        if (data.toString().startsWith('* OK')) resolve()
        else reject(new Error(`unexpected greeting ${data.toString()}`))
      })
      socket.once('error', () => {
        socket.destroy()
        if (Date.now() > deadline) reject(new Error('dovecot did not start listening'))
        else setTimeout(attempt, 100)
      })
    }
    attempt()
  })
}

export interface Dovecot {
  port: number
  /** The base directory of the server (the users' maildirs are `home/<user>/Maildir`). */
  dir: string
  /** A user's maildir folder (created, empty, when it is not there yet). */
  maildir(user: string, folder?: string): string
  /** Puts a message into a user's INBOX (or another maildir folder) as a mail delivery agent would. */
  deliver(user: string, raw: string | Buffer, folder?: string): void
  /** Stops the server (the "server gone" case), leaving the maildir. */
  kill(): void
  stop(): Promise<void>
  log(): string
}

let delivered = 0

/**
 * Starts Dovecot for `users` (name → password) on a free port with an empty maildir each; with
 * `anyUserPassword`, any user name logs in with that password (the eval gives each attempt its own user).
 */
export async function startDovecot(
  users: Record<string, string>,
  options: { anyUserPassword?: string } = {},
): Promise<Dovecot> {
  const binary = findDovecot()
  if (!binary) throw new Error(DOVECOT_MISSING)
  const who = runAs()
  const dir = await mkdtemp(join(tmpdir(), 'bureau-dovecot-'))
  const port = await freePort()
  for (const sub of ['run', 'state', 'home']) mkdirSync(join(dir, sub))
  writeFileSync(
    join(dir, 'users'),
    Object.entries(users)
      .map(([u, p]) => `${u}:{PLAIN}${p}::::::\n`)
      .join(''),
  )
  writeFileSync(join(dir, 'dovecot.conf'), config(dir, port, who, options.anyUserPassword))
  const own = (path: string) => {
    chownSync(path, who.uid, who.gid)
  }
  const maildir = (user: string, folder = 'INBOX') => {
    const base = join(dir, 'home', user, 'Maildir')
    const box = folder === 'INBOX' ? base : join(base, `.${folder}`)
    for (const path of [
      join(dir, 'home', user),
      base,
      box,
      ...['cur', 'new', 'tmp'].map((s) => join(box, s)),
    ]) {
      if (!existsSync(path)) mkdirSync(path)
      own(path)
    }
    return box
  }
  for (const path of [dir, ...readdirSync(dir).map((name) => join(dir, name))]) own(path)
  chmodSync(dir, 0o755)
  for (const user of Object.keys(users)) maildir(user)
  let output = ''
  const child: ChildProcess = spawn(binary, ['-F', '-c', join(dir, 'dovecot.conf')], {
    uid: who.uid,
    gid: who.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (d) => (output += d))
  child.stderr?.on('data', (d) => (output += d))
  await waitForGreeting(port, Date.now() + 15_000).catch((error) => {
    child.kill('SIGKILL')
    throw new Error(`${(error as Error).message}\n${output}`)
  })
  const kill = () => {
    // The master's children (login, imap, auth processes) first: once the master is gone they are
    // re-parented and could go on serving a connection that is already open.
    try {
      execFileSync('pkill', ['-KILL', '-P', String(child.pid)])
    } catch {}
    child.kill('SIGKILL')
  }
  return {
    port,
    dir,
    maildir: (user, folder) => maildir(user, folder),
    deliver(user, raw, folder) {
      const box = maildir(user, folder)
      const name = `${Date.now()}.M${++delivered}P${process.pid}.bureau-test`
      const tmp = join(box, 'tmp', name)
      writeFileSync(tmp, typeof raw === 'string' ? raw.replace(/\r?\n/g, '\n') : raw)
      own(tmp)
      renameSync(tmp, join(box, 'new', name))
    },
    kill,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
        kill()
      }
      await rm(dir, { recursive: true, force: true })
    },
    log: () => output,
  }
}
