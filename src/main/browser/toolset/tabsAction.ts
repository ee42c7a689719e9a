import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import type { BrowserSession } from '../session/browserSession'
import { PageView, pageView } from '../snapshot/pageView'

export const TabsResult = z.object({
  tabs: z.array(
    z.object({ index: z.number().int(), title: z.string(), url: z.string(), active: z.boolean() }),
  ),
  /** The current tab's first page after switch or new. */
  page: PageView.optional(),
})

async function listTabs(session: BrowserSession) {
  const active = session.activeIndex()
  return Promise.all(
    session.tabs().map(async (tab, index) => ({
      index,
      title: await tab.page.title().catch(() => ''),
      url: tab.page.url(),
      active: index === active,
    })),
  )
}

export async function runTabsAction(
  session: BrowserSession,
  args: { action: 'list' | 'switch' | 'new' | 'close'; index?: number; url?: string },
): Promise<z.input<typeof TabsResult>> {
  switch (args.action) {
    case 'list':
      return { tabs: await listTabs(session) }
    case 'switch': {
      if (args.index === undefined)
        throw new AppError('VALIDATION_FAILED', 'switch needs the index of a tab (see tabs list).')
      const tab = await session.switchTab(args.index)
      return { tabs: await listTabs(session), page: pageView(await session.read(tab)) }
    }
    case 'new': {
      const tab = await session.openTab()
      if (args.url) await session.navigate(tab, args.url)
      return {
        tabs: await listTabs(session),
        ...(args.url ? { page: pageView(await session.read(tab)) } : {}),
      }
    }
    case 'close': {
      const index = args.index ?? session.activeIndex()
      await session.closeTab(index)
      return { tabs: await listTabs(session) }
    }
  }
}
