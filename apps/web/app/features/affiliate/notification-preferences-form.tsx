import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { AffiliateSettings } from '@skanova/shared/affiliate/stats';
import type { NotificationPreferences } from '@skanova/shared/affiliate/schemas';
import { callFunction } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import { dashboardKeys, useAffiliateSettings } from './queries';
import { SectionLoading } from './section-loading';
import { SubmitActions } from '../../components/form-parts';

// The three notification preferences (docs/product/routes-and-screens.md#settings-tab Settings; docs/product/routes-and-screens.md#settings-tab: saved and honoured; default on).

const PREFERENCES = ['conversions', 'payments', 'news'] as const satisfies readonly (keyof NotificationPreferences)[];

export function NotificationPreferencesForm() {
  const { t } = useTranslation('dashboard');
  const settings = useAffiliateSettings();
  return (
    <section className="card" aria-labelledby="dashboard-notifications-title">
      <h3 id="dashboard-notifications-title">{t('settings.notifications.title')}</h3>
      {settings.isPending ? <SectionLoading /> : null}
      {settings.isError ? (
        <div className="form-error" role="alert">
          <p>{t('settings.notifications.loadError')}</p>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => void settings.refetch()}
            disabled={settings.isFetching}
          >
            {t('errors.retry')}
          </button>
        </div>
      ) : null}
      {settings.data ? <PreferencesForm initial={settings.data.notifications} /> : null}
    </section>
  );
}

function PreferencesForm({ initial }: { initial: NotificationPreferences }) {
  const { t } = useTranslation('dashboard');
  const queryClient = useQueryClient();
  const [values, setValues] = useState<NotificationPreferences>(initial);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (preferences: NotificationPreferences) => callFunction('updateNotificationPreferences', preferences),
    onSuccess: ({ notifications }) => {
      setValues(notifications);
      setSaved(true);
      queryClient.setQueryData<AffiliateSettings>(dashboardKeys.settings, (current) =>
        current ? { ...current, notifications } : current,
      );
    },
  });

  function toggle(name: keyof NotificationPreferences, checked: boolean) {
    setValues((current) => ({ ...current, [name]: checked }));
    setSaved(false);
    save.reset();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!save.isPending) save.mutate(values);
  }

  return (
    <form className="form" onSubmit={onSubmit}>
      <fieldset>
        <legend>{t('settings.notifications.legend')}</legend>
        <div className="dashboard-choices">
          {PREFERENCES.map((name) => (
            <label key={name} className="choice" htmlFor={`dashboard-notify-${name}`}>
              <input
                id={`dashboard-notify-${name}`}
                type="checkbox"
                name={name}
                checked={values[name]}
                onChange={(event) => toggle(name, event.target.checked)}
                disabled={save.isPending}
              />
              <span>{t(`settings.notifications.${name}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {save.isError ? (
        <p className="form-error" role="alert">
          {t('settings.notifications.saveError')}
        </p>
      ) : null}
      <div role="status">{saved ? <p className="form-success">{t('settings.notifications.saved')}</p> : null}</div>
      <SubmitActions
        label={t('settings.notifications.submit')}
        busyLabel={t('settings.notifications.busy')}
        busy={save.isPending}
      />
    </form>
  );
}
