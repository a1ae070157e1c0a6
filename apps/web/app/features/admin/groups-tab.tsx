import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { GROUP_ID_MAX, GROUP_NAME_MAX } from '@skanova/shared/rewards/constants';
import { adminCreateGroupSchema } from '@skanova/shared/rewards/schemas';
import { callFunction } from '../../lib/callable';
import { type FieldError, callFieldErrors } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { useTranslation } from '../../lib/react-i18n';
import { ruleInWords } from '../../lib/reward-words';
import { useAdminErrorMessage } from './admin-format';
import { useAdminTab } from './admin-tab';
import { ConsoleInput } from './console-form';
import { AdminTable, ListState, type Notice, NoticeBanner } from './console-parts';
import { GroupPage, GroupStatusBadge } from './group-page';
import { adminKeys, useAdminGroups } from './queries';

// Partner groups (docs/product/money.md#operators-groups-rules-and-campaigns,
// docs/product/routes-and-screens.md#operator-console): every group with its rule in force, how many
// versions and affiliates it has; a form to create one. A group's own page (its rule in words, its
// versions, a new version, rename, archive) opens in the tab with `?group=<id>`, so a reload keeps it.

export function GroupsTab() {
  const [searchParams] = useSearchParams();
  const [, openTab] = useAdminTab();
  const groupId = searchParams.get('group');
  if (groupId) return <GroupPage key={groupId} groupId={groupId} onBack={() => openTab('groups')} />;
  return <GroupList onOpen={(id) => openTab('groups', `?group=${encodeURIComponent(id)}`)} />;
}

function GroupList({ onOpen }: { onOpen: (groupId: string) => void }) {
  const { t, i18n } = useTranslation('admin');
  const { t: tRule } = useTranslation('affiliate');
  const lang = i18n.language;
  const groups = useAdminGroups();
  const items = groups.data ?? [];
  return (
    <div className="admin-stack">
      <h2 className="visually-hidden">{t('tabs.groups')}</h2>
      <section className="card" aria-labelledby="admin-groups-title">
        <h3 id="admin-groups-title">{t('groups.title')}</h3>
        <p className="form-hint">{t('groups.lead')}</p>
        <ListState query={groups} empty={items.length === 0} />
        {items.length > 0 ? (
          <AdminTable
            region={t('groups.title')}
            className="admin-table--stack"
            columns={[
              { label: t('groups.columns.name') },
              { label: t('groups.columns.rule') },
              { label: t('groups.columns.versions'), number: true },
              { label: t('groups.columns.affiliates'), number: true },
              { label: t('groups.columns.status') },
            ]}
          >
            {items.map((group) => (
              <tr key={group.id}>
                <th scope="row" className="admin-table__wrap">
                  <button
                    type="button"
                    className="admin-link"
                    aria-label={t('groups.open', { name: group.name })}
                    onClick={() => onOpen(group.id)}
                  >
                    {group.name}
                  </button>
                  <span className="admin-table__sub">
                    <code>{group.id}</code>
                  </span>
                </th>
                <td className="admin-table__wrap admin-table__rule" data-label={t('groups.columns.rule')}>
                  {group.current ? ruleInWords(group.current, tRule, lang)[0] : t('groups.noRule')}
                </td>
                <td className="admin-table__number" data-label={t('groups.columns.versions')}>
                  {formatCount(group.versionCount, lang)}
                </td>
                <td className="admin-table__number" data-label={t('groups.columns.affiliates')}>
                  {formatCount(group.affiliateCount, lang)}
                </td>
                <td data-label={t('groups.columns.status')}>
                  <GroupStatusBadge group={group} />
                </td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
      </section>
      <CreateGroup onCreated={onOpen} />
    </div>
  );
}

function CreateGroup({ onCreated }: { onCreated: (groupId: string) => void }) {
  const { t } = useTranslation('admin');
  const errorMessage = useAdminErrorMessage();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState({ id: '', name: '' });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const create = useMutation({
    mutationFn: (request: { id: string; name: string }) => callFunction('adminCreateGroup', request),
    onSuccess: (group) => {
      setNotice(null);
      onCreated(group.id);
    },
    onError: (error) => {
      const fields = callFieldErrors(error);
      setErrors(fields);
      setNotice(fields.length > 0 ? null : { kind: 'error', text: errorMessage(error) });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.groups }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkForm(adminCreateGroupSchema, draft);
    setErrors(checked.errors);
    if (checked.success && !create.isPending) create.mutate(checked.data);
  }

  return (
    <section className="card" aria-labelledby="admin-group-create-title">
      <h3 id="admin-group-create-title">{t('groups.create.title')}</h3>
      <NoticeBanner notice={notice} />
      <form className="admin-filters admin-filters--top" onSubmit={onSubmit} noValidate>
        <ConsoleInput
          id="admin-group-id"
          path="id"
          label={t('groups.create.id')}
          hint={t('groups.create.idHint')}
          errors={errors}
          value={draft.id}
          maxLength={GROUP_ID_MAX}
          autoCapitalize="none"
          spellCheck={false}
          onValue={(value) => setDraft({ ...draft, id: value })}
        />
        <ConsoleInput
          id="admin-group-name"
          path="name"
          label={t('groups.create.name')}
          errors={errors}
          value={draft.name}
          maxLength={GROUP_NAME_MAX}
          onValue={(value) => setDraft({ ...draft, name: value })}
        />
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending ? t('groups.create.working') : t('groups.create.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
