import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { ApprovalPolicy, PublicSettings } from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { ruleName } from '../../components/toolName'
import { issueFor } from '../issuesByPath'
import { SettingsSection } from '../SettingsSection'
import { useToolsets } from '../toolsApi'
import { useSectionForm } from '../useSectionForm'
import { SETTINGS_KEY, useSettingsApi } from '../useSettings'
import { useWholeNumberCheck } from '../useWholeNumberCheck'

const POLICIES: ReadonlyArray<[ApprovalPolicy, string]> = [
  ['allow', 'Allow'],
  ['ask', 'Ask'],
  ['deny', 'Deny'],
]
const RISKS = [
  ['read', 'Reading', 'Reading files, searching, looking up.'],
  ['write', 'Writing in the workspace', 'Changes files in the workspace; backups and history undo them.'],
  [
    'external',
    'Acting outside',
    'Sends mail, browses, runs MCP servers and anything that leaves this computer.',
  ],
] as const

type Draft = {
  read: ApprovalPolicy
  write: ApprovalPolicy
  external: ApprovalPolicy
  timeoutSeconds: string
  /** Toolset rules as `name=policy` pairs joined by ","; a toolset without a rule follows its risk level. */
  toolsets: string
}

const isToolsetRule = (key: string) => !key.includes('.')

function toolsetRules(draft: string): Map<string, ApprovalPolicy> {
  return new Map(
    draft
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, ApprovalPolicy]),
  )
}

/** The rules saved by "Always allow" on an approval card, each with Remove and, just after, Undo. */
function SavedRules({ rules }: { rules: Record<string, ApprovalPolicy> }) {
  const settingsApi = useSettingsApi()
  const queryClient = useQueryClient()
  const [removed, setRemoved] = useState<{ key: string; policy: ApprovalPolicy } | undefined>()
  const change = useMutation({
    mutationFn: (patch: Record<string, ApprovalPolicy | null>) =>
      settingsApi.update({ approvals: { rules: patch } }),
    onSuccess: (settings) => queryClient.setQueryData(SETTINGS_KEY, settings),
  })
  const methodRules = Object.entries(rules).filter(([key]) => !isToolsetRule(key))
  return (
    <div className="saved-rules">
      <h3 className="field-label" id="saved-rules-title">
        Rules for single tools
      </h3>
      {methodRules.length === 0 ? (
        <p className="field-hint">
          None yet. "Always allow" on an approval card adds one here, where it can be removed.
        </p>
      ) : (
        <ul className="rule-list" aria-labelledby="saved-rules-title">
          {methodRules.map(([key, policy]) => (
            <li key={key}>
              <span className="mono">{ruleName(key)}</span>
              <span className={`badge policy-${policy}`}>{policy}</span>
              <button
                type="button"
                className="button small secondary"
                aria-label={`Remove the rule for ${ruleName(key)}`}
                disabled={change.isPending}
                onClick={() =>
                  change.mutate({ [key]: null }, { onSuccess: () => setRemoved({ key, policy }) })
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {removed && (
        <p className="undo-line" role="status">
          Removed the rule for <span className="mono">{ruleName(removed.key)}</span>: it asks again.{' '}
          <button
            type="button"
            className="button small secondary"
            disabled={change.isPending}
            onClick={() =>
              change.mutate({ [removed.key]: removed.policy }, { onSuccess: () => setRemoved(undefined) })
            }
          >
            Undo
          </button>
        </p>
      )}
      {change.isError && (
        <p className="field-error" role="alert">
          {change.error.message}
        </p>
      )}
    </div>
  )
}

/** What the model may do without asking: by risk level, by toolset, and the rules saved from approval cards. */
export function ApprovalsSection({ settings }: { settings: PublicSettings }) {
  const { approvals } = settings
  const toolsets = useToolsets()
  const savedToolsetRules = Object.entries(approvals.rules).filter(([key]) => isToolsetRule(key))
  const form = useSectionForm<Draft>(
    {
      read: approvals.read,
      write: approvals.write,
      external: approvals.external,
      timeoutSeconds: String(approvals.timeoutSeconds),
      toolsets: savedToolsetRules.map(([k, v]) => `${k}=${v}`).join(','),
    },
    (d) => {
      const next = toolsetRules(d.toolsets)
      const rules: Record<string, ApprovalPolicy | null> = {}
      for (const [key] of savedToolsetRules) if (!next.has(key)) rules[key] = null
      for (const [key, policy] of next) rules[key] = policy
      return {
        approvals: {
          read: d.read,
          write: d.write,
          external: d.external,
          timeoutSeconds: Number(d.timeoutSeconds),
          rules,
        },
      }
    },
  )
  const timeout = useWholeNumberCheck(form.draft.timeoutSeconds, 5, 3600)
  const chosen = toolsetRules(form.draft.toolsets)
  const setToolset = (name: string, policy: ApprovalPolicy | '') => {
    if (policy) chosen.set(name, policy)
    else chosen.delete(name)
    form.set('toolsets', [...chosen].map(([k, v]) => `${k}=${v}`).join(','))
  }
  const names = [
    ...new Set([...(toolsets.data ?? []).map((t) => t.name), ...savedToolsetRules.map(([k]) => k)]),
  ]

  return (
    <SettingsSection
      id="approvals"
      title="Approvals"
      description="What the model may do without asking you. A rule for one tool wins over its toolset's, which wins over the risk level."
      form={form}
      validate={timeout.validate}
    >
      <div className="field-grid">
        {RISKS.map(([risk, label, hint]) => (
          <Field key={risk} label={label} hint={hint} error={issueFor(form.issues, `approvals.${risk}`)}>
            <select className="input" {...form.text(risk)}>
              {POLICIES.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </Field>
        ))}
        <Field
          label="Unanswered requests are denied after (seconds)"
          error={timeout.error ?? issueFor(form.issues, 'timeoutSeconds')}
        >
          <input className="input" inputMode="numeric" {...form.text('timeoutSeconds')} />
        </Field>
      </div>
      <h3 className="field-label" id="toolset-rules-title">
        By toolset
      </h3>
      {toolsets.isError && (
        <p className="field-hint">The toolset list is not available: {toolsets.error.message}</p>
      )}
      <ul className="rule-list toolset-rules" aria-labelledby="toolset-rules-title">
        {names.map((name) => (
          <li key={name}>
            <label htmlFor={`approval-toolset-${name}`} className="mono">
              {name}
            </label>
            <select
              id={`approval-toolset-${name}`}
              className="input"
              value={chosen.get(name) ?? ''}
              onChange={(e) => setToolset(name, e.currentTarget.value as ApprovalPolicy | '')}
            >
              <option value="">By risk level</option>
              {POLICIES.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </li>
        ))}
      </ul>
      <SavedRules rules={approvals.rules} />
    </SettingsSection>
  )
}
