import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import common from '@skanova/shared/i18n/en/common.json';
import studio from '@skanova/shared/i18n/en/studio.json';
import { type ConsultationProfile, consultationProfileSchema } from '@skanova/shared/studio/profile';
import { I18nextProvider } from '../../../lib/react-i18n';
import { createTestI18n } from '../../../test-support/i18n';
import { Questionnaire } from './questionnaire';

const i18n = createTestI18n('en', { en: { common, studio } });
const q = studio.consultation;

function renderForm(onSave: (profile: ConsultationProfile) => Promise<void>, profile?: ConsultationProfile) {
  return render(
    <I18nextProvider i18n={i18n}>
      <Questionnaire profile={profile} onSave={onSave} />
    </I18nextProvider>,
  );
}

const group = (legend: string) => screen.getByRole('group', { name: legend });

afterEach(cleanup);

describe('the consultation questionnaire', () => {
  it('says which questions are unanswered, under each, and focuses the first', async () => {
    const onSave = vi.fn(() => Promise.resolve());
    renderForm(onSave);
    await userEvent.click(screen.getByRole('button', { name: q.profile.save }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe(q.profile.errorSummary);
    for (const [legend, message] of [
      [q.fields.skinType, q.errors.skinType],
      [q.fields.sensitivity, q.errors.sensitivity],
      [q.fields.sunExposure, q.errors.sunExposure],
      [q.fields.ageBand, q.errors.ageBand],
    ] as const) {
      const fieldset = group(legend);
      // The group is described by its message, and its choices are marked invalid.
      const described = fieldset.getAttribute('aria-describedby')!.split(' ');
      expect(described.map((id) => document.getElementById(id)?.textContent)).toContain(message);
      expect(fieldset.querySelector('input')!.getAttribute('aria-invalid')).toBe('true');
    }
    // Concerns and current products may stay empty.
    expect(group(q.fields.concerns).querySelector('input')!.getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: new RegExp(`^${q.choices.skinType.dry}`) }));
    // Answering a question clears its message.
    await userEvent.click(screen.getByRole('radio', { name: new RegExp(`^${q.choices.skinType.oily}`) }));
    expect(screen.queryByText(q.errors.skinType)).toBeNull();
    expect(screen.getByText(q.errors.ageBand)).toBeDefined();
  });

  it('allows three concerns at most', async () => {
    const onSave = vi.fn(() => Promise.resolve());
    renderForm(onSave);
    for (const concern of ['redness', 'shine', 'texture', 'dryness'] as const)
      await userEvent.click(screen.getByRole('checkbox', { name: q.choices.concerns[concern] }));
    expect(screen.getByText(/4 of 3 chosen/)).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: q.profile.save }));
    expect(screen.getByText(q.errors.tooManyConcerns)).toBeDefined();
    await userEvent.click(screen.getByRole('checkbox', { name: q.choices.concerns.dryness }));
    expect(screen.queryByText(q.errors.tooManyConcerns)).toBeNull();
  });

  it('saves a complete profile, valid for the stored schema', async () => {
    const onSave = vi.fn((profile: ConsultationProfile) => {
      void profile;
      return Promise.resolve();
    });
    renderForm(onSave);
    const radio = (label: string) => screen.getByRole('radio', { name: new RegExp(`^${label}`) });
    await userEvent.click(radio(q.choices.skinType.combination));
    await userEvent.click(radio(q.choices.sensitivity.sometimes));
    await userEvent.click(screen.getByRole('checkbox', { name: q.choices.concerns.shine }));
    await userEvent.click(radio(q.choices.sunExposure.high));
    await userEvent.click(screen.getByRole('checkbox', { name: q.choices.currentRoutine.sunscreen }));
    await userEvent.click(radio(q.choices.ageBand['25-34']));
    await userEvent.click(screen.getByRole('button', { name: q.profile.save }));
    expect(onSave).toHaveBeenCalledTimes(1);
    const saved = onSave.mock.calls[0]![0];
    expect(consultationProfileSchema.safeParse(saved).success).toBe(true);
    expect(saved).toMatchObject({
      version: 1,
      skinType: 'combination',
      sensitivity: 'sometimes',
      concerns: ['shine'],
      sunExposure: 'high',
      currentRoutine: ['sunscreen'],
      ageBand: '25-34',
    });
  });

  it('starts from the saved answers when they are edited', () => {
    renderForm(() => Promise.resolve(), {
      version: 1,
      skinType: 'dry',
      sensitivity: 'often',
      concerns: ['redness'],
      sunExposure: 'low',
      currentRoutine: [],
      ageBand: '13-17',
      updatedAt: '2026-11-25T10:00:00.000Z',
    });
    expect(
      (screen.getByRole('radio', { name: new RegExp(`^${q.choices.skinType.dry}`) }) as HTMLInputElement).checked,
    ).toBe(true);
    expect((screen.getByRole('checkbox', { name: q.choices.concerns.redness }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: q.choices.ageBand['13-17'] }) as HTMLInputElement).checked).toBe(true);
  });
});
