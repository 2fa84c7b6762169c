// Builds the configured alert sinks (webhooks, mail commands, MQTT brokers,
// syslog) with
// their retry policies and adds them to a dispatcher. Called once by the
// composition root (daemon, or the CLI for `diskpulse alerts test`).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "alert/alert_dispatcher.h"
#include "alert/mqtt_sink.h"
#include "base/command_runner.h"
#include "config/alerts_config.h"

namespace dp {

// runner must outlive the dispatcher (mail sinks use it). Errors: a sink that
// cannot be built (a URL that does not parse; the configuration reader rejects those
// already).
// `host` names this machine in MQTT topics ("" = "localhost"). `mqtt`, when
// given, receives each MQTT sink as well, so the daemon publishes the
// drives' state over the same connection as the notifications.
Status AddConfiguredSinks(AlertDispatcher& dispatcher, const AlertsConfig& config,
                          CommandRunner& runner, const std::string& host = "",
                          std::vector<std::shared_ptr<MqttSink>>* mqtt = nullptr);

}  // namespace dp
