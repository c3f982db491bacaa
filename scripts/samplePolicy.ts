/**
 * The sample workspace's policy document (samples/refund-policy.md): a returns and refunds policy
 * for the same made-up outdoor retailer as samples/sales.csv and samples/targets.xlsx, so a
 * question can combine the numbers with the rules ("how much revenue came from orders whose
 * discount makes them store-credit only?"). Written by scripts/makeSamples.ts.
 */

/** Return windows in days per sales channel; the channels are the ones in sales.csv. */
export const RETURN_WINDOW_DAYS: Readonly<Record<string, number>> = { online: 30, retail: 30, partner: 14 };

/** Discounts at or above this fraction are refunded as store credit only. */
export const STORE_CREDIT_DISCOUNT = 0.2;

/** The markdown text; `effective` is an ISO date (YYYY-MM-DD). */
export function refundPolicyMarkdown(effective: string): string {
  const pct = `${Math.round(STORE_CREDIT_DISCOUNT * 100)} %`;
  return `# Returns and Refunds Policy

Summit & Trail Outfitters · Customer Operations · Policy CO-7 · effective ${effective}

This policy applies to every order placed with us in Europe, North America, Asia and South
America, through any of our three sales channels: **online** (our web shop), **retail** (our own
stores) and **partner** (authorised resellers). Where local consumer law gives the customer more
rights than this policy, the law wins.

## 1. Return windows

| Channel | Window (from delivery or purchase) | Where to return |
|---|---|---|
| Online | ${RETURN_WINDOW_DAYS['online']} days | By post with the prepaid label, or in any of our stores |
| Retail | ${RETURN_WINDOW_DAYS['retail']} days | In any of our stores in the same country |
| Partner | ${RETURN_WINDOW_DAYS['partner']} days | At the partner who sold the item; the partner's own policy applies on top |

In the European Union, online customers may also withdraw from the purchase within 14 days
without giving a reason (the statutory right of withdrawal); the longer window above still
applies.

## 2. What can be returned

| Category | Condition for a full refund | Notes |
|---|---|---|
| Footwear | Unworn outdoors, in the original box | Shoes worn on trails are handled as warranty claims (section 5) |
| Apparel | Unwashed, with labels attached | Merino garments must not have been machine-washed |
| Accessories | Unused | **Water bottles:** unopened only, for hygiene reasons |
| Equipment | Complete, with all parts and the manual | Headlamps are returned without batteries |

Items that do not meet the condition may be refunded at up to 50 % of the price paid after an
inspection by the store or the returns centre.

## 3. Discounted items

- Items bought with a discount below ${pct} are refunded like any other item, at the price paid
  (the discounted price, not the list price).
- Items bought with a discount of ${pct} or more are **store credit only**: we issue a voucher for
  the price paid, valid for 12 months.
- If only part of an order is returned, order-level discounts are split across the items in
  proportion to their price.

## 4. How refunds are paid

1. The returned item is inspected within 5 working days of arriving at the store or the returns
   centre.
2. Accepted returns are refunded to the original payment method within 10 working days of the
   inspection. Cash purchases in our stores are refunded in cash or by bank transfer.
3. Original shipping costs are refunded only when the whole order is returned within the window,
   or when the item was faulty or sent in error.
4. Partner orders are refunded by the partner; we reimburse the partner within 30 days.

## 5. Faulty items and warranty

All products carry a 2-year warranty against manufacturing faults from the date of purchase
(3 years for Trekking Poles). A faulty item is repaired, replaced or refunded at our choice; if a
repair fails or takes longer than 30 days, the customer may choose a refund instead. Normal wear
(sole abrasion, pilling, scratches) is not a fault.

## 6. Exceptions and approvals

- Store managers may approve a return outside the window up to 14 days late, once per customer
  per year, and must record the reason in the returns system.
- Any refund above 1,000 USD (or the local equivalent) needs a second approval by the regional
  customer-operations lead.
- Orders with a missing sales channel in the order system are treated as **online** orders.

## 7. Records

Every return is recorded with the original order id, the customer id, the reason code and the
refund amount, so returns can be matched to the sales records. Returns data is kept for 7 years.

*Questions about this policy: customer-operations@summit-trail.example*
`;
}
