import type { Role } from '@wearable/domain';
import { DEMO_PLAN_OFFICE } from './demo-plan.js';

/**
 * The demo dataset, fixed so every start (and every test) sees the same people and devices.
 * Credentials here are public on purpose: they open a demo, never a real deployment.
 */
export const DEMO_PASSWORD = 'demo-pass-2026';

export interface SeedOrganization {
  id: string;
  name: string;
  isDemo: boolean;
  groups: { id: string; name: string }[];
  gateways: {
    id: string;
    groupId: string;
    type: 'STATIONARY' | 'SMARTPHONE';
    serialNumber: string;
    name: string;
    /** The gateway's plaintext credential (the simulator signs in with id + credential). */
    credential: string;
  }[];
  /** Sites with the demo's drawn plan (demo-plan.ts) and the gateways placed on it (x, y: fractions). */
  sites?: {
    id: string;
    name: string;
    groupId: string;
    gateways: { gatewayId: string; x: number; y: number }[];
  }[];
  wearers: {
    id: string;
    name: string;
    birthDate: string;
    groupId: string;
    gatewayId: string;
    braceletId: string;
    serialNumber: string;
    dutyCycle: 1 | 3 | 5 | 10;
  }[];
}

export interface SeedAccount {
  id: string;
  email: string;
  name: string;
  role: Role;
  organizationId: string | null;
  managedGroupIds?: string[];
  linkedWearerIds?: string[];
  /** The wearer row this account is (PERSONAL_SELF): the account is added to that wearer. */
  isWearerId?: string;
  agreedTerms: boolean;
}

const DEMO_ORG = 'demo-org';
const SAKURA_ORG = 'sakura-org';

// Names and birth dates of the 20 demo wearers (ages 20-64 in 2026).
const DEMO_PEOPLE: [string, string][] = [
  ['佐藤 健太', '1988-04-12'],
  ['鈴木 大輔', '1975-09-03'],
  ['高橋 翔', '2001-01-25'],
  ['田中 誠', '1966-07-19'],
  ['伊藤 拓也', '1993-11-08'],
  ['渡辺 直樹', '1982-02-14'],
  ['山本 浩二', '1970-05-30'],
  ['中村 優斗', '2004-08-21'],
  ['小林 和也', '1979-12-02'],
  ['加藤 洋平', '1990-03-17'],
  ['吉田 亮', '1985-06-09'],
  ['山田 隆', '1963-10-27'],
  ['佐々木 美咲', '1997-07-04'],
  ['山口 剛', '1972-01-16'],
  ['松本 陽介', '1999-09-29'],
  ['井上 聡', '1968-04-06'],
  ['木村 大樹', '1987-12-23'],
  ['林 裕太', '2002-05-11'],
  ['斎藤 康弘', '1977-08-15'],
  ['清水 花子', '1994-02-28'],
];
const pad = (n: number, width: number) => String(n).padStart(width, '0');
// Mostly a 1-minute duty cycle; a few longer ones so every engine path is exercised.
const DUTY_CYCLES: Record<number, 3 | 5 | 10> = { 5: 3, 10: 5, 15: 10 };

export const DEMO_ORGANIZATIONS: SeedOrganization[] = [
  {
    id: DEMO_ORG,
    name: 'デモ建設株式会社',
    isDemo: true,
    groups: [
      { id: 'demo-group-1', name: '第一現場' },
      { id: 'demo-group-2', name: '第二現場' },
    ],
    gateways: [
      {
        id: 'demo-gateway-1',
        groupId: 'demo-group-1',
        type: 'STATIONARY',
        serialNumber: 'DEMO-GW-001',
        // On the first site's plan: its alerts' place reads 「第一現場 · 詰所」.
        name: '詰所',
        credential: 'demo-gateway-secret-1',
      },
      {
        id: 'demo-gateway-2',
        groupId: 'demo-group-2',
        type: 'SMARTPHONE',
        serialNumber: 'DEMO-GW-002',
        name: '第二現場 スマートフォン',
        credential: 'demo-gateway-secret-2',
      },
    ],
    // The first site's plan, its people at the site office (issue 36 item 7: /map is not empty in the demo).
    sites: [
      {
        id: 'demo-site-1',
        name: '第一現場',
        groupId: 'demo-group-1',
        gateways: [{ gatewayId: 'demo-gateway-1', ...DEMO_PLAN_OFFICE }],
      },
    ],
    // Wearers 1-12 on the first site (stationary gateway), 13-20 on the second (smartphone).
    wearers: DEMO_PEOPLE.map(([name, birthDate], i) => {
      const n = i + 1;
      const first = n <= 12;
      return {
        id: `demo-wearer-${pad(n, 2)}`,
        name,
        birthDate,
        groupId: first ? 'demo-group-1' : 'demo-group-2',
        gatewayId: first ? 'demo-gateway-1' : 'demo-gateway-2',
        braceletId: `demo-br-${pad(n, 3)}`,
        serialNumber: `DEMO-BR-${pad(n, 3)}`,
        dutyCycle: DUTY_CYCLES[n] ?? 1,
      };
    }),
  },
  {
    id: SAKURA_ORG,
    name: 'さくら介護ホーム',
    isDemo: false,
    groups: [{ id: 'sakura-group-1', name: '本館' }],
    gateways: [
      {
        id: 'sakura-gateway-1',
        groupId: 'sakura-group-1',
        type: 'STATIONARY',
        serialNumber: 'SAKURA-GW-001',
        name: '本館 ナースステーション',
        credential: 'sakura-gateway-secret-1',
      },
    ],
    wearers: [
      ['大野 トメ', '1941-03-03'],
      ['石川 正男', '1944-11-20'],
      ['前田 ハル', '1947-06-01'],
    ].map(([name = '', birthDate = ''], i) => ({
      id: `sakura-wearer-${pad(i + 1, 2)}`,
      name,
      birthDate,
      groupId: 'sakura-group-1',
      gatewayId: 'sakura-gateway-1',
      braceletId: `sakura-br-${pad(i + 1, 3)}`,
      serialNumber: `SAKURA-BR-${pad(i + 1, 3)}`,
      dutyCycle: 1 as const,
    })),
  },
];

/** The sign-ins of the demo, all with DEMO_PASSWORD. */
export const DEMO_ACCOUNTS: SeedAccount[] = [
  // The demo scope acts as the demo organisation's first owner: keep this one first.
  {
    id: 'demo-org-owner',
    email: 'org-owner@example.com',
    name: '現場 太郎',
    role: 'ORGANIZATION_OWNER',
    organizationId: DEMO_ORG,
    agreedTerms: true,
  },
  {
    id: 'demo-all-owner',
    email: 'all-owner@example.com',
    name: '運営 一郎',
    role: 'ALL_OWNER',
    organizationId: null,
    agreedTerms: true,
  },
  {
    id: 'demo-all-general',
    email: 'all-general@example.com',
    name: '運営 二郎',
    role: 'ALL_GENERAL',
    organizationId: null,
    agreedTerms: true,
  },
  {
    id: 'demo-org-general',
    email: 'org-general@example.com',
    name: '安全 花子',
    role: 'ORGANIZATION_GENERAL',
    organizationId: DEMO_ORG,
    agreedTerms: true,
  },
  {
    id: 'demo-org-group',
    email: 'org-group@example.com',
    name: '班長 次郎',
    role: 'ORGANIZATION_GROUP',
    organizationId: DEMO_ORG,
    managedGroupIds: ['demo-group-1'],
    agreedTerms: true,
  },
  {
    id: 'demo-new-member',
    email: 'new-member@example.com',
    name: '新人 三郎',
    role: 'ORGANIZATION_GENERAL',
    organizationId: DEMO_ORG,
    agreedTerms: false,
  },
  {
    id: 'demo-personal',
    email: 'personal@example.com',
    name: '佐藤 良子',
    role: 'PERSONAL',
    organizationId: null,
    linkedWearerIds: ['demo-wearer-01', 'demo-wearer-02'],
    agreedTerms: true,
  },
  {
    id: 'demo-wearer-20',
    email: 'personal-self@example.com',
    name: '清水 花子',
    role: 'PERSONAL_SELF',
    organizationId: DEMO_ORG,
    isWearerId: 'demo-wearer-20',
    linkedWearerIds: ['demo-wearer-20'],
    agreedTerms: true,
  },
  {
    id: 'sakura-owner',
    email: 'sakura-owner@example.com',
    name: '桜井 恵子',
    role: 'ORGANIZATION_OWNER',
    organizationId: SAKURA_ORG,
    agreedTerms: true,
  },
];

/**
 * Who each demo group notifies (the escalation order of GET /v2/group/{id}/alertNoticeSettings): the site
 * manager by phone for emergencies, then the office by SMS for everything. Numbers of the 090-0000 block,
 * not given to subscribers; with the embedded provider they land in DATA_DIR/sms.
 */
export const DEMO_NOTICE_RECIPIENTS: {
  groupId: string;
  phoneNumber: string;
  channel: 'PHONE_CALL' | 'SMS';
  emergencyOnly: boolean;
  order: number;
}[] = [
  {
    groupId: 'demo-group-1',
    phoneNumber: '+819000000101',
    channel: 'PHONE_CALL',
    emergencyOnly: true,
    order: 1,
  },
  {
    groupId: 'demo-group-1',
    phoneNumber: '+819000000100',
    channel: 'SMS',
    emergencyOnly: false,
    order: 2,
  },
  {
    groupId: 'demo-group-2',
    phoneNumber: '+819000000201',
    channel: 'PHONE_CALL',
    emergencyOnly: true,
    order: 1,
  },
  {
    groupId: 'demo-group-2',
    phoneNumber: '+819000000100',
    channel: 'SMS',
    emergencyOnly: false,
    order: 2,
  },
  {
    groupId: 'sakura-group-1',
    phoneNumber: '+819000000301',
    channel: 'SMS',
    emergencyOnly: false,
    order: 1,
  },
];
