/**
 * A rule of the domain the person can fix (a CPF already in use, a doctor already booked, a record
 * still referenced …). Actions turn it into a field or form message and a 400, never a 500.
 * `field` names the form field the message belongs beside, when there is one.
 */
export class DomainError<Field extends string = string> extends Error {
  constructor(
    message: string,
    readonly field?: Field,
  ) {
    super(message);
  }
}
