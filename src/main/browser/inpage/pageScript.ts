import type { ElementHandle, Frame, JSHandle, Page } from 'playwright-core'

/**
 * The source of `fn(arg)` as an expression. Functions written in TypeScript may be compiled with
 * helper calls (esbuild's `__name` under keepNames); the shim makes them harmless in the page.
 */
export function scriptSource<A>(fn: (arg: A) => unknown, arg: A): string {
  return `(() => { const __name = (f) => f; return (${fn.toString()})(${JSON.stringify(arg)}) })()`
}

/** Runs a self-contained function in the page's main world and returns its JSON result. */
export async function runInPage<A, R>(target: Page | Frame, fn: (arg: A) => R, arg: A): Promise<R> {
  return (await target.evaluate(scriptSource(fn, arg))) as R
}

/** Like `runInPage`, for a function that returns an element (or null). */
export async function elementInPage<A>(
  target: Page | Frame,
  fn: (arg: A) => Element | null,
  arg: A,
): Promise<ElementHandle<Element> | null> {
  const handle: JSHandle = await target.evaluateHandle(scriptSource(fn, arg))
  const element = handle.asElement()
  if (!element) await handle.dispose()
  return element as ElementHandle<Element> | null
}
