// Real smartctl captures the demo replays for its simulated drives, copied
// byte for byte from tests/fixtures/smartctl (provenance and licences in
// tests/fixtures/SOURCES.tsv): a WD Red WD20EFRX NAS disk
// (ata-hdd-wd-red-WD20EFRX-nas.json, prometheus-community/smartctl_exporter,
// Apache-2.0) and a Samsung 970 EVO Plus NVMe SSD
// (nvme-samsung-970evoplus-250g.json, same source).
#include "app/demo_captures.h"

namespace dp {

std::string_view DemoHddCapture() {
  return R"capture({
	"ata_smart_attributes": {
		"revision": 16,
		"table": [
			{
				"flags": {
					"auto_keep": true,
					"error_rate": true,
					"event_count": false,
					"performance": true,
					"prefailure": true,
					"string": "POSR-K ",
					"updated_online": true,
					"value": 47
				},
				"id": 1,
				"name": "Raw_Read_Error_Rate",
				"raw": {
					"string": "114",
					"value": 114
				},
				"thresh": 51,
				"value": 200,
				"when_failed": "",
				"worst": 200
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": false,
					"performance": true,
					"prefailure": true,
					"string": "POS--K ",
					"updated_online": true,
					"value": 39
				},
				"id": 3,
				"name": "Spin_Up_Time",
				"raw": {
					"string": "0",
					"value": 0
				},
				"thresh": 21,
				"value": 100,
				"when_failed": "",
				"worst": 253
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "-O--CK ",
					"updated_online": true,
					"value": 50
				},
				"id": 4,
				"name": "Start_Stop_Count",
				"raw": {
					"string": "3",
					"value": 3
				},
				"thresh": 0,
				"value": 100,
				"when_failed": "",
				"worst": 100
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": true,
					"string": "PO--CK ",
					"updated_online": true,
					"value": 51
				},
				"id": 5,
				"name": "Reallocated_Sector_Ct",
				"raw": {
					"string": "0",
					"value": 0
				},
				"thresh": 140,
				"value": 200,
				"when_failed": "",
				"worst": 200
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": true,
					"event_count": false,
					"performance": true,
					"prefailure": false,
					"string": "-OSR-K ",
					"updated_online": true,
					"value": 46
				},
				"id": 7,
				"name": "Seek_Error_Rate",
				"raw": {
					"string": "0",
					"value": 0
				},
				"thresh": 0,
				"value": 200,
				"when_failed": "",
				"worst": 196
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "-O--CK ",
					"updated_online": true,
					"value": 50
				},
				"id": 9,
				"name": "Power_On_Hours",
				"raw": {
					"string": "47657",
					"value": 47657
				},
				"thresh": 0,
				"value": 35,
				"when_failed": "",
				"worst": 35
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "-O--CK ",
					"updated_online": true,
					"value": 50
				},
				"id": 10,
				"name": "Spin_Retry_Count",
				"raw": {
					"string": "0",
					"value": 0
				},
				"thresh": 0,
				"value": 100,
				"when_failed": "",
				"worst": 253
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "-O--CK ",
					"updated_online": true,
					"value": 50
				},
				"id": 11,
				"name": "Calibration_Retry_Count",
				"raw": {
					"string": "0",
					"value": 0
				},
				"thresh": 0,
				"value": 100,
				"when_failed": "",
				"worst": 253
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "-O--CK ",
					"updated_online": true,
					"value": 50
				},
				"id": 12,
				"name": "Power_Cycle_Count",
				"raw": {
					"string": "3",
					"value": 3
				},
				"thresh": 0,
				"value": 100,
				"when_failed": "",
				"worst": 100
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "-O--CK ",
					"updated_online": true,
					"value": 50
				},
				"id": 192,
				"name": "Power-Off_Retract_Count",
				"raw": {
					"string": "1",
					"value": 1
				},
				"thresh": 0,
				"value": 200,
				"when_failed": "",
				"worst": 200
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "-O--CK ",
					"updated_online": true,
					"value": 50
				},
				"id": 193,
				"name": "Load_Cycle_Count",
				"raw": {
					"string": "882",
					"value": 882
				},
				"thresh": 0,
				"value": 200,
				"when_failed": "",
				"worst": 200
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": false,
					"performance": false,
					"prefailure": false,
					"string": "-O---K ",
					"updated_online": true,
					"value": 34
				},
				"id": 194,
				"name": "Temperature_Celsius",
				"raw": {
					"string": "34",
					"value": 34
				},
				"thresh": 0,
				"value": 113,
				"when_failed": "",
				"worst": 110
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "-O--CK ",
					"updated_online": true,
					"value": 50
				},
				"id": 196,
				"name": "Reallocated_Event_Count",
				"raw": {
					"string": "0",
					"value": 0
				},
				"thresh": 0,
				"value": 200,
				"when_failed": "",
				"worst": 200
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "-O--CK ",
					"updated_online": true,
					"value": 50
				},
				"id": 197,
				"name": "Current_Pending_Sector",
				"raw": {
					"string": "0",
					"value": 0
				},
				"thresh": 0,
				"value": 200,
				"when_failed": "",
				"worst": 200
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "----CK ",
					"updated_online": false,
					"value": 48
				},
				"id": 198,
				"name": "Offline_Uncorrectable",
				"raw": {
					"string": "0",
					"value": 0
				},
				"thresh": 0,
				"value": 100,
				"when_failed": "",
				"worst": 253
			},
			{
				"flags": {
					"auto_keep": true,
					"error_rate": false,
					"event_count": true,
					"performance": false,
					"prefailure": false,
					"string": "-O--CK ",
					"updated_online": true,
					"value": 50
				},
				"id": 199,
				"name": "UDMA_CRC_Error_Count",
				"raw": {
					"string": "0",
					"value": 0
				},
				"thresh": 0,
				"value": 200,
				"when_failed": "",
				"worst": 200
			},
			{
				"flags": {
					"auto_keep": false,
					"error_rate": true,
					"event_count": false,
					"performance": false,
					"prefailure": false,
					"string": "---R-- ",
					"updated_online": false,
					"value": 8
				},
				"id": 200,
				"name": "Multi_Zone_Error_Rate",
				"raw": {
					"string": "0",
					"value": 0
				},
				"thresh": 0,
				"value": 200,
				"when_failed": "",
				"worst": 200
			}
		]
	},
	"ata_smart_error_log": {
		"summary": {
			"count": 0,
			"revision": 1
		}
	},
	"ata_version": {
		"major_value": 1022,
		"minor_value": 0,
		"string": "ACS-2 (minor revision not indicated)"
	},
	"device": {
		"info_name": "/dev/sdb [SAT]",
		"name": "/dev/sdb",
		"protocol": "ATA",
		"type": "sat"
	},
	"firmware_version": "REDACTED",
	"in_smartctl_database": true,
	"interface_speed": {
		"current": {
			"bits_per_unit": 100000000,
			"sata_value": 3,
			"string": "6.0 Gb/s",
			"units_per_second": 60
		},
		"max": {
			"bits_per_unit": 100000000,
			"sata_value": 14,
			"string": "6.0 Gb/s",
			"units_per_second": 60
		}
	},
	"json_format_version": [
		1,
		0
	],
	"local_time": {
		"asctime": "Fri Feb 13 23:31:30 2009 UTC",
		"time_t": 1234567890
	},
	"logical_block_size": 512,
	"model_family": "Western Digital Red",
	"model_name": "WDC WD20EFRX-68EUZN0",
	"physical_block_size": 4096,
	"power_cycle_count": 3,
	"power_on_time": {
		"hours": 47657
	},
	"rotation_rate": 5400,
	"sata_version": {
		"string": "SATA 3.0",
		"value": 62
	},
	"serial_number": "REDACTED",
	"smart_status": {
		"passed": true
	},
	"smart_support": {
		"available": true,
		"enabled": true
	},
	"smartctl": {
		"argv": [
			"smartctl",
			"--json",
			"--info",
			"--health",
			"--attributes",
			"--tolerance=verypermissive",
			"--nocheck=standby",
			"--format=brief",
			"--log=error",
			"/dev/sdb"
		],
		"build_info": "REDACTED",
		"drive_database_version": {
			"string": "7.3/5533"
		},
		"exit_status": 0,
		"platform_info": "REDACTED",
		"svn_revision": "5338",
		"version": [
			7,
			3
		]
	},
	"temperature": {
		"current": 34
	},
	"trim": {
		"supported": false
	},
	"user_capacity": {
		"blocks": 3907029168,
		"bytes": 2000398934016
	},
	"wwn": {
		"id": 1234567890,
		"naa": 5,
		"oui": 5358
	}
})capture";
}

std::string_view DemoNvmeCapture() {
  return R"capture({
	"device": {
		"info_name": "/dev/nvme0",
		"name": "/dev/nvme0",
		"protocol": "NVMe",
		"type": "nvme"
	},
	"firmware_version": "REDACTED",
	"json_format_version": [
		1,
		0
	],
	"local_time": {
		"asctime": "Fri Feb 13 23:31:30 2009 UTC",
		"time_t": 1234567890
	},
	"logical_block_size": 512,
	"model_name": "Samsung SSD 970 EVO Plus 250GB",
	"nvme_controller_id": 4,
	"nvme_ieee_oui_identifier": 9528,
	"nvme_namespaces": [
		{
			"capacity": {
				"blocks": 488397168,
				"bytes": 250059350016
			},
			"eui64": {
				"ext_id": 386844027293,
				"oui": 9528
			},
			"formatted_lba_size": 512,
			"id": 1,
			"size": {
				"blocks": 488397168,
				"bytes": 250059350016
			},
			"utilization": {
				"blocks": 25515848,
				"bytes": 13064114176
			}
		}
	],
	"nvme_number_of_namespaces": 1,
	"nvme_pci_vendor": {
		"id": 5197,
		"subsystem_id": 5197
	},
	"nvme_smart_health_information_log": {
		"available_spare": 100,
		"available_spare_threshold": 10,
		"controller_busy_time": 892,
		"critical_comp_time": 0,
		"critical_warning": 0,
		"data_units_read": 2025034,
		"data_units_written": 1969459,
		"host_reads": 13927240,
		"host_writes": 88382369,
		"media_errors": 0,
		"num_err_log_entries": 22,
		"percentage_used": 0,
		"power_cycles": 16,
		"power_on_hours": 3149,
		"temperature": 35,
		"temperature_sensors": [
			35,
			39
		],
		"unsafe_shutdowns": 12,
		"warning_temp_time": 0
	},
	"nvme_total_capacity": 250059350016,
	"nvme_unallocated_capacity": 0,
	"nvme_version": {
		"string": "1.3",
		"value": 66304
	},
	"power_cycle_count": 16,
	"power_on_time": {
		"hours": 3149
	},
	"serial_number": "REDACTED",
	"smart_status": {
		"nvme": {
			"value": 0
		},
		"passed": true
	},
	"smart_support": {
		"available": true,
		"enabled": true
	},
	"smartctl": {
		"argv": [
			"smartctl",
			"--json",
			"--info",
			"--health",
			"--attributes",
			"--tolerance=verypermissive",
			"--nocheck=standby",
			"--format=brief",
			"--log=error",
			"/dev/nvme0"
		],
		"build_info": "REDACTED",
		"exit_status": 0,
		"platform_info": "REDACTED",
		"version": [
			7,
			3
		]
	},
	"temperature": {
		"current": 35
	},
	"user_capacity": {
		"blocks": 488397168,
		"bytes": 250059350016
	}
})capture";
}

}  // namespace dp
