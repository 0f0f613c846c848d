/**
 * Who a request comes from and what they may do: the listeners' TLS and SASL, SCRAM credentials, ACLs and their
 * authorizer, as Kafka's security works.
 */
package io.krabka.kernel.security;
