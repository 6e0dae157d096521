import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { REDIS_CLIENT } from '@shared/redis';
import type { SendLimits } from '@email/delivery';

/**
 * Takes up to ARGV[3] tokens from the connection's bucket (rate ARGV[1]/s, burst ARGV[2]) and, with a daily quota
 * (ARGV[4] > 0), from the UTC day's counter. Redis's clock, so every replica refills the bucket alike.
 * Returns {granted, wait ms before a token is there, 1 when the day's quota is spent}.
 */
const TAKE = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local rate, burst, wanted, quota = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local dayEnd = (math.floor(nowMs / 86400000) + 1) * 86400000
if quota > 0 then
  local used = tonumber(redis.call('GET', KEYS[2]) or '0')
  if used >= quota then return {0, dayEnd - nowMs, 1} end
  wanted = math.min(wanted, quota - used)
end
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or nowMs
tokens = math.min(burst, tokens + math.max(0, nowMs - at) * rate / 1000)
local granted = math.min(wanted, math.floor(tokens))
local wait = 0
if granted < 1 then
  granted = 0
  wait = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens - granted), 'at', nowMs)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 60000)
if granted > 0 and quota > 0 then
  redis.call('INCRBY', KEYS[2], granted)
  redis.call('PEXPIREAT', KEYS[2], dayEnd + 3600000)
end
return {granted, wait, 0}`;

/** Gives back tokens taken but not used (the run had fewer deliveries left than were granted). */
const REFUND = `
redis.call('HINCRBYFLOAT', KEYS[1], 'tokens', ARGV[1])
if tonumber(ARGV[2]) > 0 and redis.call('EXISTS', KEYS[2]) == 1 then redis.call('DECRBY', KEYS[2], ARGV[1]) end
return 1`;

export type Grant = { granted: number } | { granted: 0; retryInMs: number; quotaSpent: boolean };

type LimiterRedis = Redis & {
  takeSendTokens(bucket: string, quota: string, rate: number, burst: number, wanted: number, dailyQuota: number): Promise<[number, number, number]>;
  refundSendTokens(bucket: string, quota: string, tokens: number, dailyQuota: number): Promise<number>;
};

/**
 * The send rate of each delivery connection, shared by every worker replica: a token bucket in Redis (burst: one
 * second's worth) plus the UTC day's count where the connection has a daily quota. A worker asks for a batch's worth
 * and sends as many as it was granted. Redis unreachable: the call fails and the worker sends nothing until it is back.
 */
@Injectable()
export class ConnectionLimiter {
  private readonly redis: LimiterRedis;

  constructor(
    @Inject(REDIS_CLIENT) redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    redis.defineCommand('takeSendTokens', { numberOfKeys: 2, lua: TAKE });
    redis.defineCommand('refundSendTokens', { numberOfKeys: 2, lua: REFUND });
    this.redis = redis as LimiterRedis;
  }

  async take(connectionId: string, limits: SendLimits, wanted: number): Promise<Grant> {
    const [bucket, quota] = this.keys(connectionId);
    const [granted, wait, spent] = await this.redis.takeSendTokens(bucket, quota, limits.ratePerSecond, limits.ratePerSecond, wanted, limits.dailyQuota ?? 0);
    return granted > 0 ? { granted } : { granted: 0, retryInMs: Math.max(1, wait), quotaSpent: spent === 1 };
  }

  async refund(connectionId: string, limits: SendLimits, tokens: number): Promise<void> {
    if (tokens <= 0) return;
    const [bucket, quota] = this.keys(connectionId);
    await this.redis.refundSendTokens(bucket, quota, tokens, limits.dailyQuota ?? 0);
  }

  /** Messages counted against the connection's daily quota so far this UTC day. */
  async usedToday(connectionId: string): Promise<number> {
    const [, quota] = this.keys(connectionId);
    return Number((await this.redis.get(quota)) ?? 0);
  }

  /** One hash tag per connection, so both keys live in one Redis Cluster slot. */
  private keys(connectionId: string): [string, string] {
    const base = `${this.config.queuePrefix}:{send:${connectionId}}`;
    return [`${base}:bucket`, `${base}:quota:${new Date().toISOString().slice(0, 10)}`];
  }
}
