import { useEffect, useState } from 'react';
import type { AffiliateRule } from '@skanova/shared/rewards/functions';
import { callFunction } from '../../lib/callable';
import { formatDay } from '../../lib/format';
import { useTranslation } from '../../lib/react-i18n';
import { ruleInWords } from '../../lib/reward-words';

// The terms page for a signed-in affiliate whose rule is not the specification's
// (docs/product/money.md#operators-groups-rules-and-campaigns): their own rule in words above the
// terms, which it overrides for the amounts, the hold and the minimum. Under the specification's rule,
// or for a visitor, an operator or when the rule cannot be read, nothing: the terms say it all. Loaded
// after the page (routes/affiliate/terms.tsx), so the public page's first load does not carry it.

export default function OwnRuleNotice() {
  const { t, i18n } = useTranslation('affiliate');
  const lang = i18n.language;
  const [rule, setRule] = useState<AffiliateRule | null>(null);
  useEffect(() => {
    let current = true;
    callFunction('getAffiliateRule', null).then(
      (answer) => {
        if (current) setRule(answer);
      },
      // An operator's session, or a failure: the terms alone.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  if (!rule || rule.specificationRule) return null;
  return (
    <section className="card affiliate-terms__own-rule" aria-labelledby="affiliate-terms-own-rule">
      <h2 id="affiliate-terms-own-rule">{t('rule.termsTitle')}</h2>
      <p>{t('rule.termsLead')}</p>
      <ul>
        {ruleInWords(rule.rule, t, lang).map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      <p className="form-hint">{t('rule.since', { date: formatDay(rule.rule.effectiveFrom, lang) })}</p>
    </section>
  );
}
