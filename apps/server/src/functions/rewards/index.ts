import type { RegisteredCallable } from '../../http/callable.ts';
import { adminArchiveGroup } from './admin-archive-group.ts';
import { adminCreateCampaignRate } from './admin-create-campaign-rate.ts';
import { adminCreateGroup } from './admin-create-group.ts';
import { adminDeleteCampaignRate } from './admin-delete-campaign-rate.ts';
import { adminListCampaignRates } from './admin-list-campaign-rates.ts';
import { adminListGroups } from './admin-list-groups.ts';
import { adminListRuleVersions } from './admin-list-rule-versions.ts';
import { adminMoveAffiliateToGroup } from './admin-move-affiliate-to-group.ts';
import { adminPublishRuleVersion } from './admin-publish-rule-version.ts';
import { adminRenameGroup } from './admin-rename-group.ts';
import { getAffiliateCommissions } from './get-affiliate-commissions.ts';
import { getAffiliateRule } from './get-affiliate-rule.ts';

/** Partner groups, reward rules and campaign rates: the operators' (admin) and the affiliate's own view. */
export const rewardCallables = [
  adminListGroups,
  adminCreateGroup,
  adminRenameGroup,
  adminArchiveGroup,
  adminListRuleVersions,
  adminPublishRuleVersion,
  adminMoveAffiliateToGroup,
  adminListCampaignRates,
  adminCreateCampaignRate,
  adminDeleteCampaignRate,
  getAffiliateRule,
  getAffiliateCommissions,
] as const satisfies readonly RegisteredCallable[];
