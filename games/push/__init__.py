"""Turn alerts by web push beside email: a person's devices (subscriptions per
home, with the kinds of alert each wants), a push planned beside each planned email of
those kinds and sent by a worker (VAPID, aes128gcm), receipts from the service worker,
and the turn email as the fallback of a push-only player whose alert had no receipt.
"""
