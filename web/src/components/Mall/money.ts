/** Money on the mall's screens: yuan with two decimals (the contract carries the amounts as yuan). */
export const yuan = (value: number): string => `¥${value.toFixed(2)}`;

/**
 * A discount taken off an order: `-¥5.00`. No discount reads `¥0.00`, as a zero shipping fee does — never
 * `-¥0.00`.
 */
export const discountText = (value: number): string => (value > 0 ? `-${yuan(value)}` : yuan(0));
