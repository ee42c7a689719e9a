/**
 * Built-ins that pdf.js's legacy build replaces with core-js polyfills although Node has them: `push`
 * (a JS loop, about 3× slower, and pdf.js pushes every operator and glyph) and JSON's parse/stringify
 * (for `JSON.rawJSON`, which pdf.js never uses). Replaced globally, they would slow down the whole thread.
 */
const natives: [object, PropertyKey][] = [
  [Array.prototype, 'push'],
  [JSON, 'parse'],
  [JSON, 'stringify'],
]

/** Runs `load` (an import) and puts back the native built-ins it replaced; the polyfills it only adds stay. */
export async function importKeepingNatives<T>(load: () => Promise<T>): Promise<T> {
  const saved = natives.map(
    ([owner, key]) => [owner, key, Object.getOwnPropertyDescriptor(owner, key)] as const,
  )
  try {
    return await load()
  } finally {
    for (const [owner, key, descriptor] of saved)
      if (descriptor && Object.getOwnPropertyDescriptor(owner, key)?.value !== descriptor.value)
        Object.defineProperty(owner, key, descriptor)
  }
}
