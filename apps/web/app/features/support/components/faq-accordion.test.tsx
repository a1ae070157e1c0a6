import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { FaqAccordion } from './faq-accordion';

const items = [
  { question: 'First question?', answer: 'First answer.' },
  { question: 'Second question?', answer: 'Second answer.' },
  { question: 'Third question?', answer: 'Third answer.' },
];

afterEach(cleanup);

function question(name: string) {
  return screen.getByRole('button', { name });
}

describe('FaqAccordion', () => {
  it('starts closed, with each question controlling its answer region', () => {
    render(<FaqAccordion items={items} />);
    for (const item of items) {
      const button = question(item.question);
      expect(button.getAttribute('aria-expanded')).toBe('false');
      const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
      expect(panel?.hidden).toBe(true);
      expect(panel?.getAttribute('role')).toBe('region');
      expect(panel?.getAttribute('aria-labelledby')).toBe(button.id);
    }
    expect(screen.queryAllByRole('region')).toHaveLength(0);
  });

  it('keeps only one answer open at a time', async () => {
    const user = userEvent.setup();
    render(<FaqAccordion items={items} />);
    await user.click(question('First question?'));
    expect(screen.getByRole('region', { name: 'First question?' }).textContent).toBe('First answer.');

    await user.click(question('Third question?'));
    expect(question('Third question?').getAttribute('aria-expanded')).toBe('true');
    expect(question('First question?').getAttribute('aria-expanded')).toBe('false');
    expect(screen.getAllByRole('region')).toHaveLength(1);

    await user.click(question('Third question?'));
    expect(screen.queryAllByRole('region')).toHaveLength(0);
  });

  it('moves between questions with the arrow, Home and End keys and toggles with Enter and Space', async () => {
    const user = userEvent.setup();
    render(<FaqAccordion items={items} />);
    question('First question?').focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(question('Second question?'));
    await user.keyboard('{Enter}');
    expect(question('Second question?').getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(question('Third question?'));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(question('First question?'));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(question('Third question?'));
    await user.keyboard(' ');
    expect(question('Third question?').getAttribute('aria-expanded')).toBe('true');
    expect(question('Second question?').getAttribute('aria-expanded')).toBe('false');
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(question('First question?'));
  });
});
