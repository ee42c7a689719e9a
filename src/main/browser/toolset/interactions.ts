import { AppError } from '../../../shared/errors'
import { shortReason } from '../connect/connectErrors'
import type { LocatedElement } from '../elements/elementRefs'
import type { BrowserSession } from '../session/browserSession'
import type { Tab } from '../session/tab'

const ACTION_TIMEOUT_MS = 8_000

function actionFailed(id: string, verb: string, error: unknown): AppError {
  if (error instanceof AppError) return error
  const reason = shortReason(error)
  if (/not attached|detached|Element is not/i.test(reason))
    return new AppError('NOT_FOUND', `element ${id} is gone; read the page again`)
  if (/Timeout/i.test(reason))
    return new AppError(
      'TIMEOUT',
      `Could not ${verb} element ${id}: it stayed hidden, disabled or covered by something else. Read the page again (a dialog may be open).`,
    )
  return new AppError('UNAVAILABLE', `Could not ${verb} element ${id}: ${reason}`)
}

async function locateInTab(session: BrowserSession, id: string): Promise<LocatedElement & { tab: Tab }> {
  const located = await session.refs.locate(id)
  const tab = await session.focus(located.page)
  return { ...located, tab }
}

/** Whether a click on the element follows a link into another tab (`target` other than this frame's). */
async function opensTab(handle: LocatedElement['handle']): Promise<boolean> {
  return handle
    .evaluate((element) => {
      const link = element.closest('a[href][target], area[href][target]')
      const target = link?.getAttribute('target')?.trim().toLowerCase() ?? ''
      if (target === '' || ['_self', '_parent', '_top'].includes(target)) return false
      // A name of a frame on the page loads there; any other name (or _blank) opens a tab.
      return ![...document.querySelectorAll('iframe[name], frame[name]')].some(
        (frame) => frame.getAttribute('name')?.toLowerCase() === target,
      )
    })
    .catch(() => false)
}

export async function clickElement(session: BrowserSession, id: string): Promise<Tab> {
  const { tab, handle } = await locateInTab(session, id)
  try {
    const newTab = await opensTab(handle)
    return await session.settleAfterAction(tab, () => handle.click({ timeout: ACTION_TIMEOUT_MS }), newTab)
  } catch (error) {
    throw actionFailed(id, 'click', error)
  } finally {
    await handle.dispose().catch(() => {})
  }
}

function truthy(value: string | number | boolean): boolean {
  if (typeof value === 'boolean') return value
  return /^(true|1|yes|on|checked|x)$/i.test(String(value).trim())
}

export interface FillReceipt {
  id: string
  kind: string
  value: string
}

/** Fills each field by its kind: text fields are replaced, checkboxes set, selects chosen by label or value. */
export async function fillFields(
  session: BrowserSession,
  fields: Record<string, string | number | boolean>,
): Promise<{ filled: FillReceipt[]; errors: string[] }> {
  const filled: FillReceipt[] = []
  const errors: string[] = []
  for (const [id, value] of Object.entries(fields)) {
    let handle: LocatedElement['handle'] | undefined
    try {
      const located = await locateInTab(session, id)
      handle = located.handle
      const kind = located.record.kind
      if (kind === 'checkbox' || kind === 'radio') {
        await handle.setChecked(truthy(value), { timeout: ACTION_TIMEOUT_MS })
        filled.push({ id, kind, value: String(truthy(value)) })
      } else if (kind === 'select') {
        const chosen = await handle.selectOption(
          String(value)
            .split(/\s*;\s*/)
            .filter(Boolean),
          { timeout: ACTION_TIMEOUT_MS },
        )
        filled.push({ id, kind, value: chosen.join('; ') })
      } else if (kind === 'input' || kind === 'textarea' || kind === 'contenteditable') {
        await handle.fill(String(value), { timeout: ACTION_TIMEOUT_MS })
        filled.push({ id, kind, value: String(value) })
      } else {
        errors.push(`element ${id} is a ${kind}, not a field; use click for it.`)
      }
    } catch (error) {
      errors.push(actionFailed(id, 'fill', error).message)
    } finally {
      await handle?.dispose().catch(() => {})
    }
  }
  if (filled.length === 0 && errors.length > 0) throw new AppError('VALIDATION_FAILED', errors.join(' '))
  return { filled, errors }
}

export async function selectOption(session: BrowserSession, id: string, values: string[]): Promise<string[]> {
  const { handle, record } = await locateInTab(session, id)
  try {
    if (record.kind !== 'select')
      throw new AppError(
        'VALIDATION_FAILED',
        `element ${id} is a ${record.kind}, not a select; use click or fill_fields.`,
      )
    const labels = await handle.evaluate(
      // Inline on purpose: no named helpers, so the compiled function runs as is in the page.
      (el, wanted) =>
        wanted.map((want) => {
          const option = Array.from((el as HTMLSelectElement).options).find(
            (o) =>
              o.value === want ||
              o.text.replace(/\s+/g, ' ').trim().toLowerCase() ===
                want.replace(/\s+/g, ' ').trim().toLowerCase(),
          )
          return option ? option.value : null
        }),
      values,
    )
    const missing = values.filter((_, i) => labels[i] === null)
    if (missing.length > 0)
      throw new AppError(
        'VALIDATION_FAILED',
        `element ${id} has no option ${missing.map((m) => JSON.stringify(m)).join(', ')}; read the page to see its options.`,
      )
    await handle.selectOption(labels as string[], { timeout: ACTION_TIMEOUT_MS })
    return values
  } catch (error) {
    throw actionFailed(id, 'select an option of', error)
  } finally {
    await handle.dispose().catch(() => {})
  }
}
