// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import type { McpServerStatus } from '../../../src/shared/ipc'
import { defaultSettings, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { McpSection } = await import('../../../src/renderer/src/settings/mcp/McpSection')

const SECRET = 'ghp_very-secret-token-1234'
const settings = PublicSettings.parse({
  ...defaultSettings(),
  mcp: { servers: { github: { command: 'github-mcp', args: ['--stdio'] } } },
  secrets: { 'mcp.github.env.GITHUB_TOKEN': { set: true, source: 'stored', hint: '…1234' } },
  secretStorage: { kind: 'key-file', secure: true },
})
const servers: McpServerStatus[] = [
  {
    name: 'github',
    origin: 'settings',
    state: 'connected',
    toolset: 'github',
    toolCount: 2,
    transport: 'stdio',
  },
  { name: 'broken', origin: 'mcp.json', state: 'failed', toolCount: 0, lastError: 'spawn nope ENOENT' },
]

function setup() {
  invoke.mockImplementation(async (route: string, input: unknown) => {
    if (route === 'mcp.servers') return servers
    if (route === 'mcp.tools')
      return [
        {
          name: 'search',
          method: 'search',
          ruleKey: 'github.search',
          description: 'Searches.',
          risk: 'read',
        },
        {
          name: 'create_issue',
          method: 'createIssue',
          ruleKey: 'github.createIssue',
          description: 'Opens an issue.',
          risk: 'external',
        },
      ]
    if (route === 'mcp.save') return { ...servers[0], name: (input as { name: string }).name }
    if (route === 'mcp.setEnabled') return { ...servers[0], state: 'disabled' }
    if (route === 'mcp.remove') return { removed: 'github' }
    if (route === 'settings.update') return settings
    throw new Error(`unexpected route ${route}`)
  })
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={client}>
        <McpSection settings={settings} />
      </QueryClientProvider>
    </BureauProvider>,
  )
}

const calls = (route: string) => invoke.mock.calls.filter(([r]) => r === route).map(([, input]) => input)

describe('Settings → MCP servers', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('lists each server with its live state and error, and follows mcp.changed', async () => {
    setup()
    const github = await screen.findByRole('listitem', { name: 'MCP server github' })
    expect(within(github).getByRole('status').textContent).toBe('Connected · 2 tools')
    const broken = screen.getByRole('listitem', { name: 'MCP server broken' })
    expect(broken.textContent).toContain('Failed')
    expect(broken.textContent).toContain('spawn nope ENOENT')
    expect(broken.textContent).toContain('from mcp.json')
    // A server of mcp.json is the user's file: no edit, remove or enable switch here.
    expect(within(broken).queryByRole('button', { name: 'Edit' })).toBeNull()
    act(() =>
      bureau.emit('mcp.changed', [{ ...(servers[0] as McpServerStatus), state: 'connecting', toolCount: 0 }]),
    )
    await waitFor(() =>
      expect(
        within(screen.getByRole('listitem', { name: 'MCP server github' })).getByRole('status').textContent,
      ).toBe('Connecting…'),
    )
    expect(screen.queryByRole('listitem', { name: 'MCP server broken' })).toBeNull()
  })

  it('adds a stdio server: arguments one per line, env values sent once as secrets', async () => {
    setup()
    fireEvent.click(await screen.findByRole('button', { name: 'Add server' }))
    const form = screen.getByRole('form', { name: 'New MCP server' })
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'files' } })
    fireEvent.change(within(form).getByLabelText(/^Command/), { target: { value: 'npx' } })
    fireEvent.change(within(form).getByLabelText(/^Arguments/), {
      target: { value: '-y\n@modelcontextprotocol/server-filesystem\n\n/tmp' },
    })
    fireEvent.click(within(form).getByRole('button', { name: 'Add variable' }))
    fireEvent.change(within(form).getByLabelText('Variable name'), { target: { value: 'API_KEY' } })
    fireEvent.change(within(form).getByLabelText('Value of API_KEY'), { target: { value: 's3cret' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save server' }))
    await waitFor(() => expect(calls('mcp.save')).toHaveLength(1))
    expect(calls('mcp.save')[0]).toEqual({
      name: 'files',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
      transport: 'auto',
      disabled: false,
      env: { API_KEY: 's3cret' },
      headers: {},
    })
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New MCP server' })).toBeNull())
  })

  it('shows every error at once beside its field (duplicate name, no command, bad variable name), focuses the first, saves nothing', async () => {
    setup()
    fireEvent.click(await screen.findByRole('button', { name: 'Add server' }))
    const form = screen.getByRole('form', { name: 'New MCP server' })
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'github' } })
    // Checked as typed: the name says what is wrong before any Save.
    expect(within(form).getByText('A server is already called "github".')).toBeTruthy()
    fireEvent.click(within(form).getByRole('button', { name: 'Add variable' }))
    fireEvent.change(within(form).getByLabelText('Variable name'), { target: { value: '1BAD' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save server' }))
    await waitFor(() =>
      expect(
        within(form)
          .getAllByRole('alert')
          .map((a) => a.textContent),
      ).toEqual([
        'A server is already called "github".',
        'Give the command that starts the server.',
        '"1BAD" is not a valid name (letters, digits, - and _).',
      ]),
    )
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText(/^Name/)))
    expect(within(form).getByLabelText('Variable name').getAttribute('aria-invalid')).toBe('true')
    expect(calls('mcp.save')).toHaveLength(0)
  })

  it('edits a server without ever showing a stored secret, keeping it unless replaced or removed', async () => {
    setup()
    const github = await screen.findByRole('listitem', { name: 'MCP server github' })
    fireEvent.click(within(github).getByRole('button', { name: 'Edit' }))
    const form = screen.getByRole('form', { name: 'MCP server github' })
    const value = within(form).getByLabelText('Value of GITHUB_TOKEN') as HTMLInputElement
    expect(value.value).toBe('')
    expect(value.type).toBe('password')
    expect(document.body.innerHTML).not.toContain(SECRET)
    fireEvent.click(within(form).getByRole('button', { name: 'Save server' }))
    await waitFor(() => expect(calls('mcp.save')).toHaveLength(1))
    expect(calls('mcp.save')[0]).toMatchObject({
      name: 'github',
      command: 'github-mcp',
      args: ['--stdio'],
      env: {},
    })

    fireEvent.click(
      within(screen.getByRole('listitem', { name: 'MCP server github' })).getByRole('button', {
        name: 'Edit',
      }),
    )
    const again = screen.getByRole('form', { name: 'MCP server github' })
    fireEvent.click(within(again).getByRole('button', { name: 'Remove GITHUB_TOKEN' }))
    fireEvent.click(within(again).getByRole('button', { name: 'Save server' }))
    await waitFor(() => expect(calls('mcp.save')).toHaveLength(2))
    expect(calls('mcp.save')[1]).toMatchObject({ env: { GITHUB_TOKEN: null } })
  })

  // The switch answers the click itself: React Query reports the pending change a tick later, and the
  // controlled checkbox went back to checked until then (Playwright's uncheck() saw no change in CI).
  it('the Enabled switch turns off in the click, while the change is on its way, and stays off when it lands', async () => {
    setup()
    let land: (value: unknown) => void = () => {}
    const reply = new Promise((resolve) => {
      land = resolve
    })
    let landed = false
    const disabled = { ...servers[0], state: 'disabled' } as McpServerStatus
    const answer = invoke.getMockImplementation()
    invoke.mockImplementation((route: string, input: unknown) => {
      if (route === 'mcp.setEnabled') return reply
      if (route === 'mcp.servers' && landed) return Promise.resolve([disabled, servers[1]])
      return answer?.(route, input)
    })
    const github = await screen.findByRole('listitem', { name: 'MCP server github' })
    const toggle = within(github).getByRole('checkbox', { name: 'Enabled' }) as HTMLInputElement
    expect(toggle.checked).toBe(true)
    fireEvent.click(toggle)
    expect(toggle.checked).toBe(false)
    await waitFor(() => expect(toggle.disabled).toBe(true))
    expect(toggle.checked).toBe(false)
    landed = true
    land(disabled)
    await waitFor(() => expect(toggle.disabled).toBe(false))
    expect(toggle.checked).toBe(false)
    expect(within(github).getByRole('status').textContent).toBe('Disabled')
  })

  it('disables and removes a server, and sets a tool approval rule', async () => {
    setup()
    const github = await screen.findByRole('listitem', { name: 'MCP server github' })
    fireEvent.click(within(github).getByRole('checkbox', { name: 'Enabled' }))
    await waitFor(() => expect(calls('mcp.setEnabled')).toEqual([{ name: 'github', enabled: false }]))
    fireEvent.click(within(github).getByText('Tools and approvals'))
    const details = github.querySelector('details') as HTMLDetailsElement
    details.open = true
    fireEvent(details, new Event('toggle'))
    const policy = (await within(github).findByLabelText('Approval for create_issue')) as HTMLSelectElement
    expect(within(github).getByLabelText('Approval for search').textContent).toContain('Default (allow)')
    expect(policy.textContent).toContain('Default (ask)')
    fireEvent.change(policy, { target: { value: 'allow' } })
    await waitFor(() =>
      expect(calls('settings.update')).toEqual([{ approvals: { rules: { 'github.createIssue': 'allow' } } }]),
    )
    fireEvent.change(policy, { target: { value: '' } })
    await waitFor(() =>
      expect(calls('settings.update')[1]).toEqual({ approvals: { rules: { 'github.createIssue': null } } }),
    )
    // Remove asks first: Keep leaves the server, Yes removes it.
    fireEvent.click(within(github).getByRole('button', { name: 'Remove github' }))
    fireEvent.click(within(github).getByRole('button', { name: 'Keep' }))
    expect(calls('mcp.remove')).toEqual([])
    fireEvent.click(within(github).getByRole('button', { name: 'Remove github' }))
    fireEvent.click(within(github).getByRole('button', { name: 'Yes, remove github' }))
    await waitFor(() => expect(calls('mcp.remove')).toEqual([{ name: 'github' }]))
  })
})
