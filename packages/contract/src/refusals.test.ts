import { describe, expect, it } from 'vitest';
import { errorCatalogue, isErrorKey } from './errors.ts';
import { REFUSAL_FIELDS, refusalLabels, refusalShapes, VALUE_FREE_REFUSALS, type RefusalShape } from './refusals.ts';

/**
 * The walk of the error catalogue: a key whose sentence compares what was asked with what there is
 * ("insufficient", "cannot exceed") carries values, so it declares which (refusalShapes), or says why it
 * carries none (VALUE_FREE_REFUSALS). A key added tomorrow is held to it the day it appears.
 */
const COMPARES = /Insufficient|Exceed/;
const ON_THE_FORM = new Set(['MallRefundAmountExceed', 'MallDiscountExceed']);

describe('refusal shapes', () => {
  it('every catalogue key that compares figures declares the values it carries', () => {
    const undeclared = Object.keys(errorCatalogue).filter((key) => COMPARES.test(key) && !(key in refusalShapes) && !(key in VALUE_FREE_REFUSALS));
    expect(undeclared).toEqual([]);
  });

  it('declares only catalogue keys, each once, with known fields; figures always come with their places', () => {
    for (const key of [...Object.keys(refusalShapes), ...Object.keys(VALUE_FREE_REFUSALS)]) expect(isErrorKey(key), key).toBe(true);
    expect(Object.keys(refusalShapes).filter((key) => key in VALUE_FREE_REFUSALS)).toEqual([]);
    for (const [key, shape] of Object.entries(refusalShapes) as [string, RefusalShape][]) {
      for (const field of shape.fields) expect(REFUSAL_FIELDS, `${key}.${field}`).toContain(field);
      const figures = shape.fields.includes('need') || shape.fields.includes('have');
      expect(Boolean(shape.measure), key).toBe(figures);
      // What it compares is named too: a figure alone ("insufficient: 13") says nothing — unless it is a figure
      // of the one form the user is filling in (an order's discount or refund).
      if (figures && !ON_THE_FORM.has(key)) expect(shape.fields.filter((f) => f !== 'need' && f !== 'have').length, key).toBeGreaterThan(0);
    }
    for (const reason of Object.values(VALUE_FREE_REFUSALS)) expect(reason?.length).toBeGreaterThan(3);
  });

  it('writes every field in both languages', () => {
    for (const field of REFUSAL_FIELDS) {
      expect(refusalLabels[field].zh).toContain('{value}');
      expect(refusalLabels[field].en).toContain('{value}');
    }
  });
});
