// What the MQTT state publisher (alert/mqtt_state_publisher.h) publishes,
// read from the store: every drive the owner has not forgotten with the
// standing of each of its active alerts (muted where an override holds its
// notifications now), every pool of the latest discovery pass with its
// health and its own alerts ("pool:NAME:..." and "scrub:NAME:..."), and
// the forgotten drives, whose entities are to be removed.
#pragma once

#include "alert/mqtt_sink.h"
#include "base/result.h"
#include "runs/override_book.h"
#include "store/store.h"

namespace dp {

// overrides may be null (nothing is muted).
Result<MqttSnapshot> MqttSnapshotOf(Store& store, OverrideBook* overrides);

}  // namespace dp
