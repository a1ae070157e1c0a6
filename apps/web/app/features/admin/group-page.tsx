import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { GROUP_NAME_MAX } from '@skanova/shared/rewards/constants';
import type { AdminGroup, AdminGroupVersions, RewardRuleVersion } from '@skanova/shared/rewards/functions';
import { adminRenameGroupSchema } from '@skanova/shared/rewards/schemas';
import { versionStanding } from '@skanova/shared/rewards/versions';
import { callFunction } from '../../lib/callable';
import { type FieldError, callFieldErrors, fieldErrorText } from '../../lib/form-errors';
import { formatCount, formatDay } from '../../lib/format';
import { useTranslation } from '../../lib/react-i18n';
import { ruleInWords } from '../../lib/reward-words';
import { formatDateTime, useAdminErrorMessage } from './admin-format';
import { ConsoleInput } from './console-form';
import { AdminTable, ConfirmPanel, ListState, type Notice, NoticeBanner, useFocusOnMount } from './console-parts';
import { adminKeys, useAdminGroupVersions } from './queries';
import { RuleForm } from './rule-form';

// One partner group (docs/product/money.md#operators-groups-rules-and-campaigns): its rule in force in
// words (and the version scheduled next), every version, a form for the next version, its name, and
// archiving it — confirmed first; the server refuses it while the group has affiliates.

export function GroupPage({ groupId, onBack }: { groupId: string; onBack: () => void }) {
  const { t } = useTranslation('admin');
  const versions = useAdminGroupVersions(groupId);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const group = versions.data?.group;
  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.groups')}</h2>
      <section className="card admin-detail" aria-labelledby="admin-group-title">
        <div className="admin-detail__top">
          <h3 id="admin-group-title" ref={heading} tabIndex={-1}>
            {group ? t('groups.detail.title', { name: group.name }) : t('groups.title')}
          </h3>
          <button type="button" className="button button--ghost button--small" onClick={onBack}>
            {t('groups.detail.back')}
          </button>
        </div>
        <ListState query={versions} empty={false} />
        {versions.data ? <GroupSummary data={versions.data} /> : null}
      </section>
      {versions.data ? <VersionHistory data={versions.data} /> : null}
      {group && !group.archivedAt ? <RuleForm group={group} start={versions.data?.versions[0] ?? null} /> : null}
      {group ? <RenameGroup key={group.name} group={group} /> : null}
      {group ? <ArchiveGroup group={group} /> : null}
    </div>
  );
}

/** "Default", "Active" or "Archived", in words and colour. */
export function GroupStatusBadge({ group }: { group: AdminGroup }) {
  const { t } = useTranslation('admin');
  const status = group.archivedAt ? 'archived' : group.isDefault ? 'default' : 'active';
  return <span className={`badge admin-badge--group-${status}`}>{t(`groups.${status}`)}</span>;
}

function RuleSentences({ rule }: { rule: RewardRuleVersion }) {
  const { t, i18n } = useTranslation('affiliate');
  return (
    <ul className="admin-rule">
      {ruleInWords(rule, t, i18n.language).map((sentence) => (
        <li key={sentence}>{sentence}</li>
      ))}
    </ul>
  );
}

function GroupSummary({ data }: { data: AdminGroupVersions }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const { group } = data;
  return (
    <div className="admin-detail__body">
      <dl className="facts" aria-label={t('groups.detail.facts')}>
        <div>
          <dt>{t('groups.detail.id')}</dt>
          <dd>
            <code>{group.id}</code>
          </dd>
        </div>
        <div>
          <dt>{t('groups.detail.status')}</dt>
          <dd>
            <GroupStatusBadge group={group} />
          </dd>
        </div>
        <div>
          <dt>{t('groups.detail.affiliates')}</dt>
          <dd>{formatCount(group.affiliateCount, lang)}</dd>
        </div>
        <div>
          <dt>{t('groups.detail.created')}</dt>
          <dd>{formatDay(group.createdAt, lang)}</dd>
        </div>
      </dl>
      <h4>{t('groups.detail.current')}</h4>
      {group.current ? (
        <>
          <RuleSentences rule={group.current} />
          <p className="form-hint">
            {t('groups.detail.currentVersion', {
              version: group.current.version,
              date: formatDateTime(group.current.effectiveFrom, lang),
            })}
          </p>
        </>
      ) : (
        <p className="empty-state admin-empty">{t('groups.noRule')}</p>
      )}
      {group.upcoming ? (
        <div className="form-info">
          <p>
            {t('groups.detail.upcoming', {
              version: group.upcoming.version,
              date: formatDateTime(group.upcoming.effectiveFrom, lang),
            })}
          </p>
          <RuleSentences rule={group.upcoming} />
        </div>
      ) : null}
    </div>
  );
}

function VersionHistory({ data }: { data: AdminGroupVersions }) {
  const { t, i18n } = useTranslation('admin');
  const { t: tRule } = useTranslation('affiliate');
  const lang = i18n.language;
  const [now] = useState(() => new Date());
  if (data.versions.length === 0) return null;
  return (
    <section className="card" aria-labelledby="admin-versions-title">
      <h3 id="admin-versions-title">{t('versions.title')}</h3>
      <AdminTable
        region={t('versions.title')}
        className="admin-table--stack"
        columns={[
          { label: t('versions.columns.version') },
          { label: t('versions.columns.effectiveFrom') },
          { label: t('versions.columns.rule') },
          { label: t('versions.columns.by') },
          { label: t('versions.columns.standing') },
        ]}
      >
        {data.versions.map((version) => {
          const standing = versionStanding(data.versions, version, now);
          return (
            <tr key={version.version}>
              <th scope="row">v{version.version}</th>
              <td data-label={t('versions.columns.effectiveFrom')}>{formatDateTime(version.effectiveFrom, lang)}</td>
              <td className="admin-table__wrap admin-table__rule" data-label={t('versions.columns.rule')}>
                {ruleInWords(version, tRule, lang).join(' ')}
              </td>
              <td className="admin-table__wrap" data-label={t('versions.columns.by')}>
                {version.createdBy ?? t('versions.initial')}
              </td>
              <td data-label={t('versions.columns.standing')}>
                <span className={`badge admin-badge--version-${standing}`}>{t(`versions.standing.${standing}`)}</span>
              </td>
            </tr>
          );
        })}
      </AdminTable>
    </section>
  );
}

function useGroupChanged(groupId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.groups }),
      queryClient.invalidateQueries({ queryKey: adminKeys.group(groupId) }),
      queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
    ]);
}

function RenameGroup({ group }: { group: AdminGroup }) {
  const { t } = useTranslation('admin');
  const errorMessage = useAdminErrorMessage();
  const changed = useGroupChanged(group.id);
  const [name, setName] = useState(group.name);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const rename = useMutation({
    mutationFn: (request: { groupId: string; name: string }) => callFunction('adminRenameGroup', request),
    onSuccess: (renamed) => setNotice({ kind: 'success', text: t('groups.rename.done', { name: renamed.name }) }),
    onError: (error) => {
      const fields = callFieldErrors(error);
      setErrors(fields);
      setNotice(fields.some((field) => field.path === 'name') ? null : { kind: 'error', text: errorMessage(error) });
    },
    onSettled: changed,
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(null);
    const checked = checkForm(adminRenameGroupSchema, { groupId: group.id, name });
    setErrors(checked.errors);
    if (checked.success && !rename.isPending) rename.mutate(checked.data);
  }

  return (
    <section className="card" aria-labelledby="admin-rename-title">
      <h3 id="admin-rename-title">{t('groups.rename.title')}</h3>
      <NoticeBanner notice={notice} />
      <form className="admin-filters admin-filters--top" onSubmit={onSubmit} noValidate>
        <ConsoleInput
          id="admin-rename-name"
          path="name"
          label={t('groups.rename.name')}
          errors={errors}
          className="admin-filters__wide"
          value={name}
          maxLength={GROUP_NAME_MAX}
          onValue={setName}
        />
        <div className="form-actions">
          <button type="submit" className="button button--secondary" disabled={rename.isPending}>
            {rename.isPending ? t('groups.rename.working') : t('groups.rename.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}

function ArchiveGroup({ group }: { group: AdminGroup }) {
  const { t, i18n } = useTranslation('admin');
  const errorMessage = useAdminErrorMessage();
  const changed = useGroupChanged(group.id);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const archive = useMutation({
    mutationFn: () => callFunction('adminArchiveGroup', { groupId: group.id }),
    onSuccess: () => {
      setConfirming(false);
      setNotice({ kind: 'success', text: t('groups.archive.done', { name: group.name }) });
    },
    onError: (error) => {
      setConfirming(false);
      // The refusal's field message says why (the group still has affiliates …).
      const [field] = callFieldErrors(error);
      setNotice({ kind: 'error', text: field ? fieldErrorText(t, field) : errorMessage(error) });
    },
    onSettled: changed,
  });
  return (
    <section className="card" aria-labelledby="admin-archive-title">
      <h3 id="admin-archive-title">{t('groups.archive.title')}</h3>
      <NoticeBanner notice={notice} />
      {group.isDefault ? <p>{t('groups.archive.isDefault')}</p> : null}
      {group.archivedAt ? (
        <p>{t('groups.archive.isArchived', { date: formatDay(group.archivedAt, i18n.language) })}</p>
      ) : null}
      {!group.isDefault && !group.archivedAt ? (
        confirming ? (
          <ConfirmPanel
            id="admin-archive-confirm"
            title={t('groups.archive.confirmTitle', { name: group.name })}
            text={t('groups.archive.confirmText')}
            confirmLabel={t('groups.archive.button')}
            busy={archive.isPending}
            danger
            onConfirm={() => archive.mutate()}
            onCancel={() => setConfirming(false)}
          />
        ) : (
          <>
            <p>{t('groups.archive.text')}</p>
            <button
              type="button"
              className="button button--danger"
              onClick={() => {
                setNotice(null);
                setConfirming(true);
              }}
            >
              {t('groups.archive.button')}
            </button>
          </>
        )
      ) : null}
    </section>
  );
}
