import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'

// Swaps two directory entries atomically, forever: renameat2(RENAME_EXCHANGE) through the raw syscall, so
// it also builds against a C library without the wrapper.
const C_SOURCE = `
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
int main(int argc, char **argv) {
  if (argc != 3) return 2;
  if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) != 0) {
    perror("renameat2");
    return 1;
  }
  puts("swapping");
  fflush(stdout);
  for (;;) syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE);
}
`

const PYTHON_SOURCE = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
if libc.syscall(316, -100, a, -100, b, 2) != 0:
    sys.exit("renameat2: errno %d" % ctypes.get_errno())
print("swapping", flush=True)
while True:
    libc.syscall(316, -100, a, -100, b, 2)
`

export interface SwapLoop {
  stop(): Promise<void>
}

/** How the loop can be run here, or why it cannot (the caller prints the reason and skips). */
export async function prepareSwapLoop(
  workDir: string,
): Promise<{ command: string; args: string[] } | { reason: string }> {
  if (process.platform !== 'linux') return { reason: 'renameat2(RENAME_EXCHANGE) is Linux-only' }
  const binary = path.join(workDir, 'swap')
  try {
    await writeFile(`${binary}.c`, C_SOURCE)
    execFileSync('cc', ['-O2', '-o', binary, `${binary}.c`], { stdio: 'pipe' })
    return { command: binary, args: [] }
  } catch {
    // no C compiler: the same loop through Python's ctypes (x86-64 syscall number)
  }
  if (existsSync('/usr/bin/python3') && process.arch === 'x64') {
    await writeFile(`${binary}.py`, PYTHON_SOURCE)
    return { command: '/usr/bin/python3', args: [`${binary}.py`] }
  }
  return { reason: 'no C compiler (cc) and no /usr/bin/python3 on x86-64 to run the swap loop' }
}

/** Starts swapping `a` and `b`; resolves once the first exchange succeeded. */
export function startSwapLoop(command: string, args: string[], a: string, b: string): Promise<SwapLoop> {
  const child: ChildProcess = spawn(command, [...args, a, b], { stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    let errors = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString()
    })
    child.once('exit', (code) => reject(new Error(`swap loop exited (${code}): ${errors}`)))
    child.stdout?.once('data', () =>
      resolve({
        stop: async () => {
          child.kill('SIGKILL')
          await exited
        },
      }),
    )
  })
}
