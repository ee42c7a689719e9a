import { createRequire } from 'node:module'

const requireHere = createRequire(import.meta.url)

/**
 * A library a toolset loads when a method first needs it, not when the toolset is declared: listing
 * toolsets (the system prompt, `bureau tool --help`, `bureau serve` start-up) then costs nothing of it.
 * For external CommonJS packages (the call is synchronous, so code that uses it stays synchronous);
 * in an async `run`, `await import('pkg')` does the same for any package.
 */
export function lazyLibrary<T>(specifier: string): () => T {
  let loaded: T | undefined
  return () => {
    loaded ??= requireHere(specifier) as T
    return loaded
  }
}
