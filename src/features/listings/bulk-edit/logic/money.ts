/** The bulk editor's price arithmetic lives in lib/ so the show's counter view rounds the same way. */
export * from '../../../../lib/price-change';
